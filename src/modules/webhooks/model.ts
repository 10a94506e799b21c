/** Webhook shapes: what the dashboard routes take and return, and the presenters from rows. */
import { t, type Static } from "elysia";
import { SUBSCRIBABLE_EVENT_TYPES } from "./event-types";
import type { AttemptRow, DeliveryRow, EndpointRow, NotificationRow } from "./repo";

const TS = "2026-01-15T09:30:00.000Z";
export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 500;
/** A rotation's overlap: default 24 h, at most 7 days. */
export const DEFAULT_OVERLAP_SECONDS = 24 * 3600;
export const MAX_OVERLAP_SECONDS = 7 * 24 * 3600;

export const WebhookEventType = t.Object(
  {
    type: t.String(),
    emitted: t.Boolean({ description: "false: subscribable, but nothing sends it yet" }),
    description: t.String(),
  },
  {
    $id: "WebhookEventType",
    examples: [{ type: "checkout_session.paid", emitted: true, description: "A checkout session was paid (data: the checkout session)" }],
  },
);

const EventTypeList = t.Array(t.String({ minLength: 1, maxLength: 100 }), {
  maxItems: SUBSCRIBABLE_EVENT_TYPES.length,
  description: `Event types sent to this endpoint; empty: all of them. Each one of: ${SUBSCRIBABLE_EVENT_TYPES.join(", ")}`,
});

export const WebhookEndpoint = t.Object(
  {
    id: t.String({ description: "wh_…" }),
    url: t.String(),
    description: t.Union([t.String(), t.Null()]),
    eventTypes: t.Array(t.String(), { description: "Empty: every event type" }),
    enabled: t.Boolean(),
    disabledReason: t.Union([t.String(), t.Null()], { description: "Why it was disabled (410 Gone, persistent failure, an operator)" }),
    disabledAt: t.Union([t.String({ format: "date-time" }), t.Null()]),
    previousSecretExpiresAt: t.Union([t.String({ format: "date-time" }), t.Null()], {
      description: "During a rotation's overlap: until when the previous secret signs too",
    }),
    createdAt: t.String({ format: "date-time" }),
    updatedAt: t.String({ format: "date-time" }),
  },
  {
    $id: "WebhookEndpoint",
    examples: [
      {
        id: "wh_01JH5Q8T0M3V9X2Y4Z6A8B0C1W",
        url: "https://example.com/webhooks/billing",
        description: "Production receiver",
        eventTypes: ["checkout_session.paid", "company.created"],
        enabled: true,
        disabledReason: null,
        disabledAt: null,
        previousSecretExpiresAt: null,
        createdAt: TS,
        updatedAt: TS,
      },
    ],
  },
);

const SECRET_EXAMPLE = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4b1NNKmGrnM=";
// The endpoint's own fields plus its secret, as a created API key is its fields plus the raw key (CreatedApiKey).
export const WebhookEndpointWithSecret = t.Object(
  {
    ...WebhookEndpoint.properties,
    secret: t.String({ description: "whsec_…: the signing secret; shown here and by the reveal route, never in lists" }),
  },
  { $id: "WebhookEndpointWithSecret", examples: [{ ...WebhookEndpoint.examples[0], secret: SECRET_EXAMPLE }] },
);

export const WebhookSecret = t.Object(
  {
    secret: t.String({ description: "whsec_…: the current signing secret" }),
    previousSecret: t.Union([t.String(), t.Null()], { description: "During a rotation's overlap, the previous secret (it signs too)" }),
    previousSecretExpiresAt: t.Union([t.String({ format: "date-time" }), t.Null()]),
  },
  { $id: "WebhookSecret", examples: [{ secret: SECRET_EXAMPLE, previousSecret: null, previousSecretExpiresAt: null }] },
);

export const WebhookEndpointCreate = t.Object(
  {
    url: t.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: "https (http only with WEBHOOK_ALLOW_HTTP); no credentials in it" }),
    description: t.Optional(t.String({ maxLength: MAX_DESCRIPTION_LENGTH })),
    eventTypes: t.Optional(EventTypeList),
    enabled: t.Optional(t.Boolean({ default: true })),
  },
  { $id: "WebhookEndpointCreate", examples: [{ url: "https://example.com/webhooks/billing", eventTypes: ["checkout_session.paid"] }] },
);

export const WebhookEndpointUpdate = t.Object(
  {
    url: t.Optional(t.String({ minLength: 1, maxLength: MAX_URL_LENGTH })),
    description: t.Optional(t.Union([t.String({ maxLength: MAX_DESCRIPTION_LENGTH }), t.Null()], { description: 'null or "" clears it' })),
    eventTypes: t.Optional(EventTypeList),
    enabled: t.Optional(t.Boolean({ description: "true re-enables a disabled endpoint and clears why it was disabled" })),
  },
  { $id: "WebhookEndpointUpdate", examples: [{ enabled: true }] },
);

export const WebhookRotate = t.Object(
  {
    overlapSeconds: t.Optional(
      t.Integer({
        minimum: 0,
        maximum: MAX_OVERLAP_SECONDS,
        description: "How long the previous secret keeps signing beside the new one (default 86400, at most 604800; 0: not at all)",
      }),
    ),
  },
  { $id: "WebhookRotate", examples: [{ overlapSeconds: 86400 }] },
);

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

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const presentEndpoint = (r: EndpointRow, now: number): Static<typeof WebhookEndpoint> => ({
  id: r.id,
  url: r.url,
  description: r.description,
  eventTypes: r.event_types,
  enabled: r.enabled,
  disabledReason: r.disabled_reason,
  disabledAt: iso(r.disabled_at),
  previousSecretExpiresAt: r.previous_expires_at && r.previous_expires_at.getTime() > now ? r.previous_expires_at.toISOString() : null,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

export const presentDelivery = (r: DeliveryRow): Static<typeof WebhookDelivery> => ({
  id: r.id,
  endpointId: r.endpoint_id,
  messageId: r.message_id,
  eventType: r.event_type,
  status: r.status,
  attempts: r.attempts,
  lastStatusCode: r.last_status_code,
  lastLatencyMs: r.last_latency_ms,
  lastError: r.last_error,
  nextAttemptAt: iso(r.next_attempt_at),
  deliveredAt: iso(r.delivered_at),
  createdAt: r.created_at.toISOString(),
});

export const presentAttempt = (r: AttemptRow): Static<typeof WebhookAttempt> => ({
  attempt: r.attempt,
  statusCode: r.status_code,
  latencyMs: r.latency_ms,
  error: r.error,
  responseExcerpt: r.response_excerpt,
  startedAt: r.claimed_at.toISOString(),
  finishedAt: iso(r.finished_at),
});

export const presentNotification = (r: NotificationRow): Static<typeof WebhookNotification> => ({
  id: r.id,
  kind: r.kind,
  resourceType: r.resource_type,
  resourceId: r.resource_id,
  message: r.message,
  details: r.details,
  createdAt: r.created_at.toISOString(),
});
