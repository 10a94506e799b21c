/** Dashboard routes for coupons (catalog:read / catalog:write). */
import { Elysia, t } from "elysia";
import { ErrorBody, ValidationErrorBody } from "../../../http/error-schemas";
import { authPlugin } from "../../../http/auth";
import { requestState } from "../../../http/request-context";
import { Page, PageQuery, pageRequest, pageResponse } from "../../../http/pagination";
import { actorOf } from "../../audit/repo";
import { IncludeArchived } from "../schemas";
import { catalogDeps, type RouteDeps } from "../write";
import { data } from "../../../http/envelope";
import { Coupon, CouponCreate, CouponPatch } from "./schemas";
import { presentCoupon } from "./present";
import { archiveCoupon, createCoupon, getCoupon, listCouponPage, updateCoupon } from "./edit";

const COUPON_DESCRIPTION = `A coupon takes \`percentOff\` (a percentage with up to 2 fractional digits, 0.01 to 100; stored in basis points) or \`amountOff\` (a decimal string with at most 6 fractional digits, with \`currency\`, a token this environment settles in), never both.
\`duration\`: \`once\` (the first billing period), \`repeating\` (\`durationPeriods\` periods, 1 to 1200) or \`forever\`.
\`code\` is unique per team and environment compared in any case (409 otherwise) and is what customers type (POST /companies/plan and POST /subscriptions/activate take it as \`couponCode\`).
\`maxRedemptions\` is counted atomically: concurrent redemptions never pass it. \`expiresAt\` must be in the future. \`planIds\` restricts it to those plans (each must exist: 400 otherwise); empty means any plan.
As with Stripe, a coupon's terms (percentOff, amountOff, currency, duration, durationPeriods, planIds) are fixed once it has been redeemed (409); its name and expiry may always change, and maxRedemptions may only go up (or be lifted with null).
Every problem of a request is reported at once in \`details\`, and nothing is written. Each change is audited.`;

const Params = t.Object({ id: t.String({ minLength: 1, maxLength: 200, description: "coupon_…" }) });
const TAGS = ["Dashboard: catalog"];

export function couponRoutes(deps: RouteDeps) {
  const secret = deps.config.tokenSigningSecret;
  const catalog = catalogDeps(deps);
  const actor = (principal: Parameters<typeof actorOf>[0], request: Request) => actorOf(principal, requestState(request).requestId);
  return new Elysia()
    .use(authPlugin(deps))
    .get(
      "/dashboard/coupons",
      async ({ principal, query }) => {
        const page = pageRequest(secret, "dashboard-coupons", principal, query);
        const rows = await listCouponPage(deps.sql, principal, page, query.includeArchived === true);
        return pageResponse(page, rows, presentCoupon);
      },
      {
        access: true,
        query: t.Object({ ...PageQuery, ...IncludeArchived }),
        response: Page(Coupon),
        detail: { tags: TAGS, summary: "List coupons, newest first (archived ones with includeArchived=true)" },
      },
    )
    .post(
      "/dashboard/coupons",
      async ({ principal, body, request, set }) => {
        set.status = 201;
        return { data: presentCoupon(await createCoupon(catalog, principal, actor(principal, request), body)) };
      },
      {
        access: true,
        body: CouponCreate,
        response: { 201: data(Coupon), 400: ValidationErrorBody, 409: ErrorBody },
        detail: { tags: TAGS, summary: "Create a coupon", description: COUPON_DESCRIPTION },
      },
    )
    .get("/dashboard/coupons/:id", async ({ principal, params }) => ({ data: presentCoupon(await getCoupon(deps.sql, principal, params.id)) }), {
      access: true,
      params: Params,
      response: { 200: data(Coupon), 404: ErrorBody },
      detail: { tags: TAGS, summary: "A coupon, with its redemptions so far" },
    })
    .patch(
      "/dashboard/coupons/:id",
      async ({ principal, params, body, request }) => ({
        data: presentCoupon(await updateCoupon(catalog, principal, actor(principal, request), { id: params.id, patch: body })),
      }),
      {
        access: true,
        params: Params,
        body: CouponPatch,
        response: { 200: data(Coupon), 400: ValidationErrorBody, 404: ErrorBody, 409: ErrorBody },
        detail: { tags: TAGS, summary: "Update a coupon (partial)", description: COUPON_DESCRIPTION },
      },
    )
    .delete(
      "/dashboard/coupons/:id",
      async ({ principal, params, request }) => ({
        data: presentCoupon(await archiveCoupon(catalog, principal, actor(principal, request), params.id)),
      }),
      {
        access: true,
        params: Params,
        response: { 200: data(Coupon), 404: ErrorBody },
        detail: {
          tags: TAGS,
          summary: "Archive a coupon",
          description:
            "Coupons are archived, never deleted (redemptions and invoices refer to them): it can no longer be redeemed (`coupon_archived`), and leaves lists. Archiving an archived coupon changes nothing.",
        },
      },
    );
}
