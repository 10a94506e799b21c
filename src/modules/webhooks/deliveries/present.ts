/** Delivery, attempt and notification rows to API records. */
import { type Static } from "elysia";
import type { AttemptRow, DeliveryRow, NotificationRow } from "./rows";
import { iso } from "../endpoints/schemas";
import type { WebhookDelivery, WebhookAttempt, WebhookNotification } from "./schemas";

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
