/** Endpoint rows to API records (never the secret). */
import { type Static } from "elysia";
import type { EndpointRow } from "./rows";
import { WebhookEndpoint, iso } from "./schemas";

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
