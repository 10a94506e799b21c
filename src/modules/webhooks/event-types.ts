/**
 * The one list of webhook event types (BILLING.md, "Jobs, outbox and webhooks"). Endpoint filters are
 * checked against it, the OpenAPI document and docs/webhooks.md list it, and `emitEvent` takes only these names.
 * `emitted` says whether the service sends the type today; a type not sent yet is switched on where its
 * state changes once the feature that changes it is built (payment confirmations, agents, escrow).
 */
export const EVENT_TYPES = {
  "checkout_session.paid": { emitted: true, description: "A checkout session was paid (data: the checkout session)" },
  "payment_link.paid": { emitted: true, description: "A checkout session of a payment link was paid (data: the payment link and the session)" },
  "company.created": { emitted: true, description: "A company was created, by an event, an access token or the API (data: the company)" },
  "invoice.issued": { emitted: true, description: "An invoice was issued" },
  "invoice.paid": { emitted: true, description: "An invoice was paid" },
  "invoice.overdue": { emitted: true, description: "An invoice passed its due date unpaid" },
  "invoice.voided": { emitted: true, description: "An invoice was voided" },
  "credit_note.created": { emitted: true, description: "A credit note was created" },
  "refund.created": { emitted: true, description: "A refund was created" },
  "subscription.activated": { emitted: true, description: "A subscription became active" },
  "subscription.renewed": { emitted: true, description: "A subscription renewed for a new period" },
  "subscription.past_due": { emitted: true, description: "A subscription's renewal payment failed" },
  "subscription.canceled": { emitted: true, description: "A subscription was canceled" },
  "subscription.plan_changed": { emitted: true, description: "A subscription moved to another plan" },
  "mandate.revoked": { emitted: true, description: "A payment mandate was revoked" },
  "mandate.expired": { emitted: true, description: "A payment mandate expired" },
  "payment.confirmed": { emitted: true, description: "A payment was confirmed on chain (an x402 payment the service settled)" },
  "agent.topup.dispatched": { emitted: true, description: "An agent balance top-up was sent and confirmed on chain (data: the dispatch)" },
  "agent.topup.failed": {
    emitted: true,
    description: "An agent balance top-up was refused (funding mandate, daily cap) or failed on chain; nothing moved (data: the dispatch)",
  },
  "escrow.authorized": { emitted: true, description: "An escrow reservation holds the payer's funds (data: the reservation)" },
  "escrow.captured": {
    emitted: true,
    description: "An escrow reservation was paid to the payee: after its window, early on a proof, or on resolution (data: the reservation)",
  },
  "escrow.disputed": { emitted: true, description: "The payer disputed an escrow reservation within its window (data: the reservation)" },
  "escrow.refunded": { emitted: true, description: "A disputed escrow reservation was refunded to the payer (data: the reservation)" },
  "webhook.test": { emitted: true, description: "Sent only by POST /dashboard/webhooks/endpoints/{id}/test, to that endpoint, whatever its filter" },
} as const satisfies Record<string, { emitted: boolean; description: string }>;

export type EventType = keyof typeof EVENT_TYPES;
export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];
/** What an endpoint may subscribe to: every type but the test event, which goes to the endpoint tested whatever it filters. */
export const SUBSCRIBABLE_EVENT_TYPES = EVENT_TYPE_NAMES.filter((name) => name !== "webhook.test");

export const isEventType = (name: string): name is EventType => Object.hasOwn(EVENT_TYPES, name);
