/** Dashboard routes for plans and add-ons, their prices and their entitlements (catalog:read / catalog:write). */
import { Elysia, t } from "elysia";
import { ErrorBody, ValidationErrorBody } from "../../../http/error-schemas";
import { authPlugin } from "../../../http/auth";
import { requestState } from "../../../http/request-context";
import { Page, PageQuery, pageRequest, pageResponse } from "../../../http/pagination";
import { actorOf } from "../../audit/repo";
import { IncludeArchived, Removed } from "../schemas";
import { catalogDeps, type RouteDeps } from "../write";
import { data } from "../../../http/envelope";
import { Plan, PlanCreate, PlanPatch, PriceSet } from "./schemas";
import { presentPlanRecord } from "./present";
import { createPlanRecord, getPlan, removePlan, removePlanPrice, setPlanPrice, updatePlanRecord } from "./edit";
import { listPlanPage } from "./repo";
import { planEntitlementRoutes } from "../entitlements/routes";

const PLAN_DESCRIPTION = `A plan is a plan (\`kind: "plan"\`, a company's \`activePlanId\`) or an add-on (\`kind: "add_on"\`, in \`activeAddOnIds\`).
Prices: at most one per billing period (\`monthly\`, \`yearly\`); \`amount\` a decimal string with at most 6 fractional digits, greater than 0 (exponents, signs and more digits are a 400, never rounded); \`currency\` the symbol of a token this environment settles in (test networks for development, main networks for production; see the chain registry), and the amount must be exactly representable by that token on every such network. Amounts are answered with six fractional digits.
\`onchainPlanIds\`: network id -> the plan's id on that chain (what POST /subscriptions/activate takes as \`planId\`), unique per team, environment and network (409 otherwise).
Every problem of a request is reported at once in \`details\`, and nothing is written. Each change is audited and reaches GET /check on every instance at commit.`;

const Params = t.Object({ id: t.String({ minLength: 1, maxLength: 200, description: "plan_…" }) });
const PriceParams = t.Object({ id: t.String({ minLength: 1, maxLength: 200 }), period: t.Union([t.Literal("monthly"), t.Literal("yearly")]) });
const Responses = { 400: ValidationErrorBody, 404: ErrorBody, 409: ErrorBody };
const TAGS = ["Dashboard: catalog"];

export function planRoutes(deps: RouteDeps) {
  const secret = deps.config.tokenSigningSecret;
  const catalog = catalogDeps(deps);
  const actor = (principal: Parameters<typeof actorOf>[0], request: Request) => actorOf(principal, requestState(request).requestId);
  return new Elysia()
    .use(authPlugin(deps))
    .get(
      "/dashboard/plans",
      async ({ principal, query }) => {
        const page = pageRequest(secret, "dashboard-plans", principal, query);
        const rows = await listPlanPage(deps.sql, principal, page, { includeArchived: query.includeArchived === true, kind: query.kind ?? null });
        return pageResponse(page, rows, presentPlanRecord);
      },
      {
        access: true,
        query: t.Object({ ...PageQuery, ...IncludeArchived, kind: t.Optional(t.Union([t.Literal("plan"), t.Literal("add_on")])) }),
        response: Page(Plan),
        detail: { tags: TAGS, summary: "List plans and add-ons, newest first (archived ones with includeArchived=true)" },
      },
    )
    .post(
      "/dashboard/plans",
      async ({ principal, body, request, set }) => {
        set.status = 201;
        return { data: presentPlanRecord(await createPlanRecord(catalog, principal, actor(principal, request), body)) };
      },
      {
        access: true,
        body: PlanCreate,
        response: { 201: data(Plan), ...Responses },
        detail: { tags: TAGS, summary: "Create a plan or add-on with its prices", description: PLAN_DESCRIPTION },
      },
    )
    .get("/dashboard/plans/:id", async ({ principal, params }) => ({ data: presentPlanRecord(await getPlan(deps.sql, principal, params.id)) }), {
      access: true,
      params: Params,
      response: { 200: data(Plan), 404: ErrorBody },
      detail: { tags: TAGS, summary: "A plan with its prices, on-chain ids and entitlements" },
    })
    .patch(
      "/dashboard/plans/:id",
      async ({ principal, params, body, request }) => {
        const plan = await updatePlanRecord(catalog, principal, actor(principal, request), { id: params.id, patch: body });
        deps.entitlements.catalogChanged(principal);
        return { data: presentPlanRecord(plan) };
      },
      {
        access: true,
        params: Params,
        body: PlanPatch,
        response: { 200: data(Plan), ...Responses },
        detail: {
          tags: TAGS,
          summary: "Update a plan (partial); archive or restore it",
          description: `Omitted fields keep their value. \`archived: true\` archives the plan (gone from lists, no new prices; companies on it keep their entitlements), \`false\` restores it. The kind cannot change while companies, payment links or sessions use the plan (409).\n\n${PLAN_DESCRIPTION}`,
        },
      },
    )
    .delete(
      "/dashboard/plans/:id",
      async ({ principal, params, request }) => {
        const result = await removePlan(catalog, principal, actor(principal, request), params.id);
        deps.entitlements.catalogChanged(principal);
        return { data: result };
      },
      {
        access: true,
        params: Params,
        response: { 200: data(Removed), 404: ErrorBody },
        detail: {
          tags: TAGS,
          summary: "Delete an unused plan, or archive one in use",
          description:
            "A plan that companies are on (as plan or add-on), that payment links or checkout sessions sell, or that coupons are restricted to is archived (`outcome: archived`): those records keep pointing at it and companies keep their entitlements. Any other plan is deleted with its prices and entitlements (`outcome: deleted`).",
        },
      },
    )
    .put(
      "/dashboard/plans/:id/prices/:period",
      async ({ principal, params, body, request }) => ({
        data: presentPlanRecord(
          await setPlanPrice(catalog, principal, actor(principal, request), { planId: params.id, period: params.period, price: body }),
        ),
      }),
      {
        access: true,
        params: PriceParams,
        body: PriceSet,
        response: { 200: data(Plan), ...Responses },
        detail: {
          tags: TAGS,
          summary: "Set or replace the plan's price for a billing period",
          description: `Answers the whole plan. An archived plan takes no new price (409).\n\n${PLAN_DESCRIPTION}`,
        },
      },
    )
    .delete(
      "/dashboard/plans/:id/prices/:period",
      async ({ principal, params, request }) => ({
        data: presentPlanRecord(await removePlanPrice(catalog, principal, actor(principal, request), { planId: params.id, period: params.period })),
      }),
      {
        access: true,
        params: PriceParams,
        response: { 200: data(Plan), 404: ErrorBody },
        detail: { tags: TAGS, summary: "Remove the plan's price for a billing period (404 when it has none)" },
      },
    )
    .use(planEntitlementRoutes(deps));
}
