/** The credit packs section's routes: the list and create form, archive after a confirmation (docs/x402.md#credit-packs). */
import type { Api } from "../../api";
import { formOf, given, type Section } from "../../kit";
import { page, redirect } from "../../response";
import type { PageSession } from "../../session";
import { refusal } from "../../forms";
import { READ_ONLY } from "../plans/shared";
import { ArchivePackPage, CreditPacksPage, type CreditPacksProps, PATH } from "./page";

const enc = encodeURIComponent;
/** The API's names for the one price row's fields. */
const FIELDS = {
  "prices[0].network": "network",
  "prices[0].token": "token",
  "prices[0].amount": "amount",
  "prices.network": "network",
  "prices.token": "token",
  "prices.amount": "amount",
  prices: "network",
};

export const creditPackPages: Section = (kit) => (app) => {
  const listPage = async (
    api: Api,
    session: PageSession,
    query: Record<string, string | undefined>,
    extra: Partial<CreditPacksProps> = {},
    status = 200,
  ) => {
    const includeArchived = query.includeArchived === "true";
    const q = new URLSearchParams();
    if (includeArchived) q.set("includeArchived", "true");
    if (query.cursor) q.set("cursor", query.cursor);
    const list = await api({ method: "GET", path: `${PATH}?${q}` });
    if (list.status !== 200) return kit.refusedBy(list, "The credit packs could not be read", session);
    return page(
      <CreditPacksPage
        session={session}
        packs={list.body.data}
        nextCursor={list.body.nextCursor ?? null}
        includeArchived={includeArchived}
        done={query.done}
        {...extra}
      />,
      status,
    );
  };
  return app
    .get(PATH, ({ request, query }) => kit.signedIn(request, (api, session) => listPage(api, session, query)))
    .post(PATH, ({ request, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const input = {
          key: form.key ?? "",
          name: given(form.name),
          credits: form.credits ?? "",
          prices: [{ network: form.network ?? "", token: form.token ?? "", amount: form.amount ?? "" }],
          offerOnPaymentRequired: form.offerOnPaymentRequired === "on",
          enabled: form.enabled === "on",
        };
        const answer = await kit.send(api, form, { method: "POST", path: PATH, body: input });
        if (answer.status === 201) return redirect(`${PATH}?done=created`);
        if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
        return listPage(api, session, {}, { form: refusal(answer, form, FIELDS) }, answer.status);
      }),
    )
    .get(`${PATH}/:id/archive`, ({ request, params }) =>
      kit.signedIn(request, async (api, session) => {
        if (!session.may("DELETE", "/dashboard/credit-packs/{id}")) return kit.refused(403, READ_ONLY, session);
        const answer = await api({ method: "GET", path: `${PATH}/${enc(params.id)}` });
        if (answer.status !== 200) return kit.refusedBy(answer, "The credit pack could not be read", session);
        return page(<ArchivePackPage session={session} pack={answer.body.data} />);
      }),
    )
    .post(`${PATH}/:id/archive`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const answer = await kit.send(api, formOf(body), { method: "DELETE", path: `${PATH}/${enc(params.id)}` });
        if (answer.status !== 200) return kit.refusedBy(answer, "The credit pack could not be archived", session);
        return redirect(`${PATH}?done=archived`);
      }),
    );
};
