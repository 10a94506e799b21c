/**
 * Plan changes over HTTP. POST /companies/plan (the spec's route; its credentials are not shown there, so:
 * an embed access token, which names the company, the customer's own: a company changes only its own plan)
 * and its preview POST /companies/plan/preview, and the dashboard's twins for an operator:
 * POST /dashboard/companies/{id}/plan and .../plan/preview. A preview runs the same quote the change runs
 * (quote.ts), changes nothing, and records it as a quote the change can be given (quotes.ts).
 */
import { Elysia, t } from "elysia";
import type { Sql } from "../../../db/client";
import { errorResponses } from "../../../http/error-schemas";
import { authPlugin, type AuthDeps } from "../../../http/auth";
import { requestState } from "../../../http/request-context";
import type { Clock } from "../../../lib/clock";
import { apiError } from "../../../lib/errors";
import type { Tenant } from "../../../lib/tenant";
import { actorOf } from "../../audit/repo";
import { findCompanyIdByKeys } from "../../customers/repo";
import { changePlan, checkChangeFields } from "./change";
import { previewPlanChange } from "./preview";
import { commandOf, PlanChangeBody, PlanChangePreview, PlanChangePreviewBody, PlanChangeResult } from "./schemas";
import type { SubscriptionDeps } from "../context";
import { CHAIN_OPERATION_ERRORS } from "../schemas";
import { CHANGE_DESCRIPTION, PREVIEW_DESCRIPTION } from "./docs";

type RouteDeps = AuthDeps & { sql: Sql; clock: Clock; subscriptions: SubscriptionDeps };

const CompanyParams = t.Object({ id: t.String({ minLength: 1, maxLength: 200, description: "Our comp_… id or your id for the company" }) });

/** The company a dashboard route or the CLI names (our id or the integrator's), or 404. */
export async function companyIdOr404(sql: Sql, tenant: Tenant, ref: string): Promise<string> {
  const id = await findCompanyIdByKeys(sql, tenant, { id: ref });
  if (!id) throw apiError("not_found", `No company ${ref}`);
  return id;
}

const PREVIEW_RESPONSES = {
  200: PlanChangePreview,
  ...errorResponses(
    "validation_failed",
    "not_found",
    "plan_not_found",
    "coupon_not_found",
    "plan_change_not_allowed",
    "plan_not_subscribable",
    "operation_in_progress",
    "coupon_archived",
    "coupon_expired",
    "coupon_exhausted",
    "coupon_not_applicable",
  ),
};

export function planChangeRoutes(deps: RouteDeps) {
  const now = () => new Date(deps.clock.now());
  return new Elysia()
    .use(authPlugin(deps))
    .post(
      "/companies/plan",
      async ({ principal, body, request }) => {
        const actor = actorOf(principal, requestState(request).requestId);
        return { data: await changePlan({ deps: deps.subscriptions, tenant: principal, actor, now: now() }, principal.companyId!, commandOf(body)) };
      },
      {
        access: true,
        body: PlanChangeBody,
        response: { 200: PlanChangeResult, ...CHAIN_OPERATION_ERRORS },
        detail: { tags: ["Subscriptions"], summary: "Change your own company's plan, with exact proration", description: CHANGE_DESCRIPTION },
      },
    )
    .post(
      "/companies/plan/preview",
      async ({ principal, body }) => ({
        data: await previewPlanChange(deps.sql, principal, { companyId: principal.companyId!, request: commandOf(body), now: now() }),
      }),
      {
        access: true,
        body: PlanChangePreviewBody,
        response: PREVIEW_RESPONSES,
        detail: { tags: ["Subscriptions"], summary: "Preview a change of your own company's plan: the quote", description: PREVIEW_DESCRIPTION },
      },
    )
    .post(
      "/dashboard/companies/:id/plan",
      async ({ principal, params, body, request }) => {
        const actor = actorOf(principal, requestState(request).requestId);
        const command = commandOf(body);
        checkChangeFields(deps.subscriptions.chains, command); // before the company is looked up
        const companyId = await companyIdOr404(deps.sql, principal, params.id);
        return { data: await changePlan({ deps: deps.subscriptions, tenant: principal, actor, now: now() }, companyId, command) };
      },
      {
        access: true,
        params: CompanyParams,
        body: PlanChangeBody,
        response: { 200: PlanChangeResult, ...CHAIN_OPERATION_ERRORS },
        detail: { tags: ["Subscriptions"], summary: "Change a company's plan (operator)", description: CHANGE_DESCRIPTION },
      },
    )
    .post(
      "/dashboard/companies/:id/plan/preview",
      async ({ principal, params, body }) => {
        const companyId = await companyIdOr404(deps.sql, principal, params.id);
        return { data: await previewPlanChange(deps.sql, principal, { companyId, request: commandOf(body), now: now() }) };
      },
      {
        access: true,
        params: CompanyParams,
        body: PlanChangePreviewBody,
        response: PREVIEW_RESPONSES,
        detail: { tags: ["Subscriptions"], summary: "Preview a plan change: the exact invoice it would issue", description: PREVIEW_DESCRIPTION },
      },
    );
}
