/** Webhook endpoint shapes: what the dashboard's endpoint routes take and return, and the presenter from rows (deliveries and notifications: ../deliveries/schemas.ts). */
import { t } from "elysia";
import { SUBSCRIBABLE_EVENT_TYPES } from "../event-types";

/** The examples' timestamp (deliveries/schemas.ts's too). */
export const TS = "2026-01-15T09:30:00.000Z";
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

// A placeholder, plainly not a secret (a real one is whsec_ + 32 random bytes in base64).
const SECRET_EXAMPLE = "whsec_EXAMPLE-not-a-real-signing-secret";
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

export const iso = (d: Date | null) => d?.toISOString() ?? null;
