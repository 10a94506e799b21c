/**
 * The spec's subscription and mandate endpoints: POST /subscriptions/activate, POST /mandates/revoke,
 * GET /mandates/{id}/status, and POST /subscriptions/cancel (not in the spec: a customer's browser, with its
 * embed token, cancels its own company's subscription). Decisions in docs.ts and docs/subscriptions.md#subscriptions-on-chain.
 */
import { Elysia } from "elysia";
import type { Sql } from "../../db/client";
import { CodedErrorBody, ErrorBody, ValidationErrorBody } from "../../http/error-schemas";
import { authPlugin, type AuthDeps } from "../../http/auth";
import { requestState } from "../../http/request-context";
import type { Clock } from "../../lib/clock";
import { apiError } from "../../lib/errors";
import { actorOf } from "../audit/repo";
import type { EntitlementRuntime } from "../entitlements/runtime";
import { assertCompanyRef } from "../customers/identify";
import { assertEmbedCompany } from "../events/identity";
import { activateSubscription } from "./activation/activate";
import { cancelSubscription } from "./cancellation/manage";
import type { SubscriptionDeps } from "./context";
import { ACTIVATE_DESCRIPTION, CANCEL_DESCRIPTION, REVOKE_DESCRIPTION, STATUS_DESCRIPTION } from "./docs";
import { mandateStatus, revokeMandate } from "./mandates/manage";
import { presentSubscription } from "./present";
import { ActivateBody, ActivationResult, CHAIN_OPERATION_ERRORS, CancelBody, Mandate, MandateParams, RevokeBody, RevokeResult } from "./schemas";
import { t } from "elysia";
import type { Tenant } from "../../lib/tenant";
import { findMandate } from "./repo";

type RouteDeps = AuthDeps & { sql: Sql; clock: Clock; entitlements: EntitlementRuntime; subscriptions: SubscriptionDeps };

export function subscriptionRoutes(deps: RouteDeps) {
  const now = () => new Date(deps.clock.now());
  return new Elysia()
    .use(authPlugin(deps))
    .post(
      "/subscriptions/activate",
      async ({ principal, body, request }) => {
        assertCompanyRef(body.company);
        // An embed token subscribes its own company only, and describes nothing about it (events' rule).
        if (principal.kind === "embed") await assertEmbedCompany(deps, principal, body.company);
        const company = principal.kind === "embed" ? { id: principal.companyId! } : body.company;
        const result = await activateSubscription(
          { deps: deps.subscriptions, tenant: principal, actor: actorOf(principal, requestState(request).requestId), now: now() },
          {
            planId: body.planId,
            paymentAccount: body.paymentAccount,
            company,
            subscriberEmail: body.subscriberEmail ?? null,
            couponCode: body.couponCode ?? null,
            payerConsent: body.payerConsent ?? null,
            idempotencyKey: request.headers.get("idempotency-key"),
          },
        );
        return { data: result };
      },
      {
        access: true,
        body: ActivateBody,
        response: { 200: ActivationResult, ...CHAIN_OPERATION_ERRORS },
        detail: {
          tags: ["Subscriptions"],
          summary: "Activate a subscription: first charge, token minted, autopay installed",
          description: ACTIVATE_DESCRIPTION,
        },
      },
    )
    .post(
      "/subscriptions/cancel",
      async ({ principal, body, request }) => {
        const sub = await cancelSubscription(
          { deps: deps.subscriptions, tenant: principal, actor: actorOf(principal, requestState(request).requestId), now: now() },
          { companyId: principal.companyId! },
          { atPeriodEnd: body.atPeriodEnd ?? true, reason: body.reason ?? "canceled by the customer" },
        );
        return { data: presentSubscription(sub) };
      },
      {
        access: true,
        body: CancelBody,
        response: { 200: t.Object({ data: t.Record(t.String(), t.Unknown()) }), 400: ValidationErrorBody, 404: ErrorBody, 409: CodedErrorBody },
        detail: { tags: ["Subscriptions"], summary: "Cancel your own company's subscription (embed token)", description: CANCEL_DESCRIPTION },
      },
    )
    .post(
      "/mandates/revoke",
      async ({ principal, body, request }) => {
        if (principal.kind === "embed" && !(await ownMandate(deps, principal.companyId!, principal, body.mandateId)))
          throw apiError("mandate_not_found", `No mandate ${body.mandateId}`, { "body.mandateId": `No mandate ${body.mandateId}` });
        const revoked = await revokeMandate(
          { deps: deps.subscriptions, tenant: principal, actor: actorOf(principal, requestState(request).requestId), now: now() },
          { mandateId: body.mandateId, reason: body.reason ?? null, revokedBy: body.revokedBy ?? null },
        );
        return { revoked: true as const, mandateId: revoked.id, status: "REVOKED" as const };
      },
      {
        access: true,
        body: RevokeBody,
        response: { 200: RevokeResult, 400: ValidationErrorBody, 404: ValidationErrorBody, 409: ValidationErrorBody },
        detail: { tags: ["Mandates"], summary: "Revoke a mandate: pulls stop", description: REVOKE_DESCRIPTION },
      },
    )
    .get(
      "/mandates/:id/status",
      async ({ principal, params }) => {
        if (principal.kind === "embed" && !(await ownMandate(deps, principal.companyId!, principal, params.id)))
          throw apiError("not_found", `No mandate ${params.id}`);
        return mandateStatus(deps.subscriptions, principal, params.id);
      },
      {
        access: true,
        params: MandateParams,
        response: { 200: Mandate, 404: ErrorBody },
        detail: { tags: ["Mandates"], summary: "A mandate's status and amounts", description: STATUS_DESCRIPTION },
      },
    );
}

/** An embed token reaches only its own company's mandates; another's reads as unknown (404). */
async function ownMandate(deps: RouteDeps, companyId: string, tenant: Tenant, id: string): Promise<boolean> {
  const mandate = await findMandate(deps.sql, tenant, id);
  return mandate?.company_id === companyId;
}
