/** Dashboard routes for credit packs (catalog:read / catalog:write). */
import { Elysia, t } from "elysia";
import { ErrorBody, ValidationErrorBody } from "../../../http/error-schemas";
import { authPlugin } from "../../../http/auth";
import { requestState } from "../../../http/request-context";
import { Page, PageQuery, pageRequest, pageResponse } from "../../../http/pagination";
import { data } from "../../../http/envelope";
import { actorOf } from "../../audit/repo";
import { IncludeArchived } from "../schemas";
import { catalogDeps, type RouteDeps } from "../write";
import { CreditPack, CreditPackCreate } from "./schemas";
import { presentCreditPack } from "./present";
import { archiveCreditPack, createCreditPack, getCreditPack, listCreditPackPage } from "./edit";

const PACK_DESCRIPTION = `A credit pack sells \`credits\` (an integer string) for a price per accepted network and token: each price names an EVM network of the chain registry this environment settles on, a token of it that takes EIP-3009 authorizations (its EIP-712 domain is in the registry), and an amount in the token's smallest units.
\`key\` is unique per team and environment compared in any case (409 otherwise).
\`offerOnPaymentRequired: true\` makes it the pack an insufficient-credit 402 of POST /events and POST /usage/consume offers as x402 payment terms (the \`PAYMENT-REQUIRED\` header), paid to the team's settlement wallet of each network; at most one live pack per environment carries the flag (409 otherwise: archive the other first). A disabled or archived pack is never offered.
A pack's terms never change (a 402 that offered them may still be paid): a new price is a new pack. Every problem of a request is reported at once in \`details\`, and nothing is written. Each change is audited.`;

const Params = t.Object({ id: t.String({ minLength: 1, maxLength: 200, description: "cpk_…" }) });
const TAGS = ["Dashboard: catalog"];

export function creditPackRoutes(deps: RouteDeps) {
  const secret = deps.config.tokenSigningSecret;
  const catalog = catalogDeps(deps);
  const present = presentCreditPack(deps.config.chains);
  const actor = (principal: Parameters<typeof actorOf>[0], request: Request) => actorOf(principal, requestState(request).requestId);
  return new Elysia()
    .use(authPlugin(deps))
    .get(
      "/dashboard/credit-packs",
      async ({ principal, query }) => {
        const page = pageRequest(secret, "dashboard-credit-packs", principal, query);
        const rows = await listCreditPackPage(deps.sql, principal, page, query.includeArchived === true);
        return pageResponse(page, rows, present);
      },
      {
        access: true,
        query: t.Object({ ...PageQuery, ...IncludeArchived }),
        response: Page(CreditPack),
        detail: { tags: TAGS, summary: "List credit packs, newest first (archived ones with includeArchived=true)" },
      },
    )
    .post(
      "/dashboard/credit-packs",
      async ({ principal, body, request, set }) => {
        set.status = 201;
        return { data: present(await createCreditPack(catalog, principal, actor(principal, request), body)) };
      },
      {
        access: true,
        body: CreditPackCreate,
        response: { 201: data(CreditPack), 400: ValidationErrorBody, 409: ErrorBody },
        detail: { tags: TAGS, summary: "Create a credit pack", description: PACK_DESCRIPTION },
      },
    )
    .get("/dashboard/credit-packs/:id", async ({ principal, params }) => ({ data: present(await getCreditPack(deps.sql, principal, params.id)) }), {
      access: true,
      params: Params,
      response: { 200: data(CreditPack), 404: ErrorBody },
      detail: { tags: TAGS, summary: "A credit pack" },
    })
    .delete(
      "/dashboard/credit-packs/:id",
      async ({ principal, params, request }) => ({
        data: present(await archiveCreditPack(catalog, principal, actor(principal, request), params.id)),
      }),
      {
        access: true,
        params: Params,
        response: { 200: data(CreditPack), 404: ErrorBody },
        detail: {
          tags: TAGS,
          summary: "Archive a credit pack",
          description:
            "Credit packs are archived, never deleted (x402 payments refer to them): a 402 no longer offers it, and it leaves lists; payments already settled stand. Archiving an archived pack changes nothing.",
        },
      },
    );
}
