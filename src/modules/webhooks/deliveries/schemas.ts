/** Webhook delivery shapes: deliveries, their attempts, the test event and operator notifications, and the presenters from rows. */
import { t } from "elysia";

import { TS } from "../endpoints/schemas";

export const WebhookDelivery = t.Object(
  {
    id: t.String({ description: "dlv_…" }),
    endpointId: t.String(),
    messageId: t.String({ description: "msg_…: the webhook-id header, the same on every attempt and replay" }),
    eventType: t.String(),
    status: t.UnionEnum(["pending", "delivered", "failed", "skipped"], {
      description: "pending: attempts remain; delivered: a 2xx; failed: attempts exhausted or 410; skipped: the endpoint was disabled first",
    }),
    attempts: t.Integer(),
    lastStatusCode: t.Union([t.Integer(), t.Null()]),
    lastLatencyMs: t.Union([t.Integer(), t.Null()]),
    lastError: t.Union([t.String(), t.Null()]),
    nextAttemptAt: t.Union([t.String({ format: "date-time" }), t.Null()]),
    deliveredAt: t.Union([t.String({ format: "date-time" }), t.Null()]),
    createdAt: t.String({ format: "date-time" }),
  },
  {
    $id: "WebhookDelivery",
    examples: [
      {
        id: "dlv_01JH5Q8T0M3V9X2Y4Z6A8B0C1X",
        endpointId: "wh_01JH5Q8T0M3V9X2Y4Z6A8B0C1W",
        messageId: "msg_01JH5Q8T0M3V9X2Y4Z6A8B0C1Y",
        eventType: "checkout_session.paid",
        status: "delivered",
        attempts: 1,
        lastStatusCode: 200,
        lastLatencyMs: 84,
        lastError: null,
        nextAttemptAt: null,
        deliveredAt: TS,
        createdAt: TS,
      },
    ],
  },
);

export const WebhookAttempt = t.Object(
  {
    attempt: t.Integer({ minimum: 1 }),
    statusCode: t.Union([t.Integer(), t.Null()]),
    latencyMs: t.Union([t.Integer(), t.Null()]),
    error: t.Union([t.String(), t.Null()], { description: "Network failure, timeout, refused address or redirect; truncated" }),
    responseExcerpt: t.Union([t.String(), t.Null()], { description: "The first 1 KiB of the response body" }),
    startedAt: t.String({ format: "date-time" }),
    finishedAt: t.Union([t.String({ format: "date-time" }), t.Null()], { description: "null: in flight" }),
  },
  { $id: "WebhookAttempt" },
);

// A delivery's own fields (as listed) plus every attempt. The list is attemptLog, not attempts: that name is
// already the delivery's attempt count, and a field must not change type between the list and the detail.
export const WebhookDeliveryDetail = t.Object(
  {
    ...WebhookDelivery.properties,
    attemptLog: t.Array(WebhookAttempt, { description: "Every attempt, oldest first; finishedAt null: in flight" }),
  },
  {
    $id: "WebhookDeliveryDetail",
    examples: [
      {
        ...WebhookDelivery.examples[0],
        attemptLog: [{ attempt: 1, statusCode: 200, latencyMs: 84, error: null, responseExcerpt: "ok", startedAt: TS, finishedAt: TS }],
      },
    ],
  },
);

export const WebhookNotification = t.Object(
  {
    id: t.String({ description: "ntf_…" }),
    kind: t.String({ description: "webhook_endpoint.disabled" }),
    resourceType: t.String(),
    resourceId: t.String(),
    message: t.String(),
    details: t.Record(t.String(), t.Unknown()),
    createdAt: t.String({ format: "date-time" }),
  },
  {
    $id: "WebhookNotification",
    examples: [
      {
        id: "ntf_01JH5Q8T0M3V9X2Y4Z6A8B0C1Z",
        kind: "webhook_endpoint.disabled",
        resourceType: "webhook_endpoint",
        resourceId: "wh_01JH5Q8T0M3V9X2Y4Z6A8B0C1W",
        message: "Webhook endpoint https://example.com/webhooks/billing was disabled: The endpoint answered 410 Gone.",
        details: { reason: "The endpoint answered 410 Gone", deliveryId: "dlv_01JH5Q8T0M3V9X2Y4Z6A8B0C1X" },
        createdAt: TS,
      },
    ],
  },
);

export const WebhookEventSent = t.Object(
  { messageId: t.String(), deliveryId: t.String() },
  { $id: "WebhookEventSent", examples: [{ messageId: "msg_01JH5Q8T0M3V9X2Y4Z6A8B0C1Y", deliveryId: "dlv_01JH5Q8T0M3V9X2Y4Z6A8B0C1X" }] },
);
