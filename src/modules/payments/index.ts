/** Payment links and checkout sessions: open a session, submit the on-chain payment, read the outcome. */
import { Elysia, t } from "elysia";
import { CodedErrorBody, ErrorBody, ValidationErrorBody } from "../../http/error-schemas";
import { authPlugin } from "../../http/auth";
import { requestState } from "../../http/request-context";
import { type AuthDeps } from "../../http/auth";
import type { Sql } from "../../db/client";
import type { Clock } from "../../lib/clock";
import type { SettlementDeps } from "./settle";
import { apiError } from "../../lib/errors";
import { actorOf } from "../audit/repo";
import { CheckoutSession, CheckoutSessionCreate, PaymentLink, PaymentLinkCreate, PaymentSubmit } from "./schemas";
import { presentCheckoutSession, presentPaymentLink } from "./present";
import { findCheckoutSession, findPaymentLink, listCheckoutSessions, listPaymentLinks } from "./repo";
import { createPaymentLink } from "./links";
import { openCheckoutSession } from "./sessions";
import { submitPayment } from "./settle";
import { refusalCode } from "./refusals";
import { DESCRIPTIONS } from "./docs";

const IdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 64 }) });
const RECENT = 100; // the spec's "most recent 100, no cursor"

/** What these routes need; the service's wiring (src/app-deps.ts) provides it. */
type RouteDeps = AuthDeps & { sql: Sql; clock: Clock; settlement: SettlementDeps };

export function paymentRoutes(deps: RouteDeps) {
  const settlement = deps.settlement;
  return new Elysia()
    .use(authPlugin(deps))
    .post(
      "/payment-links",
      async ({ principal, body, request, set }) => {
        const link = await createPaymentLink(
          { sql: deps.sql, registry: settlement.registry },
          principal,
          actorOf(principal, requestState(request).requestId),
          body,
        );
        set.status = 201;
        return { paymentLink: presentPaymentLink(link) };
      },
      {
        access: true,
        body: PaymentLinkCreate,
        response: { 201: t.Object({ paymentLink: PaymentLink }), 400: ValidationErrorBody },
        detail: { tags: ["Payments"], summary: "Create a payment link", description: DESCRIPTIONS.createLink },
      },
    )
    .get(
      "/payment-links",
      async ({ principal }) => ({ paymentLinks: (await listPaymentLinks(deps.sql, principal, RECENT)).map(presentPaymentLink) }),
      {
        access: true,
        response: { 200: t.Object({ paymentLinks: t.Array(PaymentLink) }) },
        detail: { tags: ["Payments"], summary: "The most recent 100 payment links, newest first" },
      },
    )
    .get(
      "/payment-links/:id",
      async ({ principal, params }) => {
        const link = await findPaymentLink(deps.sql, principal, params.id);
        if (!link) throw apiError("not_found", `No payment link ${params.id}`);
        return { paymentLink: presentPaymentLink(link) };
      },
      {
        access: true,
        params: IdParams,
        response: { 200: t.Object({ paymentLink: PaymentLink }), 404: ErrorBody },
        detail: { tags: ["Payments"], summary: "Retrieve a payment link" },
      },
    )
    .post(
      "/checkout-sessions",
      async ({ principal, body, request, set }) => {
        const session = await openCheckoutSession(
          { sql: deps.sql, registry: settlement.registry },
          { tenant: principal, actor: actorOf(principal, requestState(request).requestId), now: new Date(deps.clock.now()) },
          body,
        );
        set.status = 201;
        return { checkoutSession: presentCheckoutSession(session) };
      },
      {
        access: true,
        body: CheckoutSessionCreate,
        response: { 201: t.Object({ checkoutSession: CheckoutSession }), 400: ValidationErrorBody, 409: ErrorBody },
        detail: { tags: ["Payments"], summary: "Open a checkout session from a payment link", description: DESCRIPTIONS.openSession },
      },
    )
    .post(
      "/checkout-sessions/:id/payments",
      async ({ principal, params, body, request, set }) => {
        const outcome = await submitPayment(
          settlement,
          { tenant: principal, actor: actorOf(principal, requestState(request).requestId), now: new Date(deps.clock.now()) },
          params.id,
          body.txHash,
        );
        const checkoutSession = presentCheckoutSession(outcome.session);
        if (outcome.kind === "failed")
          throw apiError(
            refusalCode(outcome.session.failure_reason ?? ""),
            outcome.session.failure_detail ?? "The transaction does not prove the payment",
          );
        if (outcome.kind === "pending") {
          set.status = 202;
          return { checkoutSession, verification: { reason: outcome.reason, detail: outcome.detail } };
        }
        return { checkoutSession };
      },
      {
        access: true,
        params: IdParams,
        body: PaymentSubmit,
        response: {
          200: t.Object({ checkoutSession: CheckoutSession }),
          202: t.Object({ checkoutSession: CheckoutSession, verification: t.Object({ reason: t.String(), detail: t.String() }) }),
          400: ValidationErrorBody,
          404: ErrorBody,
          409: CodedErrorBody,
          422: CodedErrorBody,
        },
        detail: { tags: ["Payments"], summary: "Submit the on-chain payment of a checkout session", description: DESCRIPTIONS.submitPayment },
      },
    )
    .get(
      "/checkout-sessions",
      async ({ principal }) => ({ checkoutSessions: (await listCheckoutSessions(deps.sql, principal, RECENT)).map(presentCheckoutSession) }),
      {
        access: true,
        response: { 200: t.Object({ checkoutSessions: t.Array(CheckoutSession) }) },
        detail: {
          tags: ["Payments"],
          summary: "The most recent 100 checkout sessions, newest first (no cursor)",
          description: DESCRIPTIONS.sessionStates,
        },
      },
    )
    .get(
      "/checkout-sessions/:id",
      async ({ principal, params }) => {
        const session = await findCheckoutSession(deps.sql, principal, params.id);
        if (!session) throw apiError("not_found", `No checkout session ${params.id}`);
        return { checkoutSession: presentCheckoutSession(session) };
      },
      {
        access: true,
        params: IdParams,
        response: { 200: t.Object({ checkoutSession: CheckoutSession }), 404: ErrorBody },
        detail: { tags: ["Payments"], summary: "Retrieve a checkout session", description: DESCRIPTIONS.sessionStates },
      },
    );
}
