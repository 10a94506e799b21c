/** Typed access to webhook messages, deliveries, attempts and operator notifications (sql/queries/webhook_message_*, webhook_delivery_*, webhook_attempt_*, operator_notification_*). */
import { queries, run, runOne, type Db } from "../../../db/queries";
import type { Tenant } from "../../../lib/tenant";
import type { Sealed } from "../endpoints/rows";
import type { AttemptRow, DeliveryRow, DeliveryStatus, MessageRow, NotificationRow } from "./rows";

const Q = queries([
  "webhook_message_insert",
  "webhook_message_find_by_id",
  "webhook_delivery_insert",
  "webhook_delivery_list_page",
  "webhook_delivery_find_by_id",
  "webhook_delivery_load_for_attempt",
  "webhook_delivery_record",
  "webhook_delivery_skip",
  "webhook_delivery_success_since",
  "webhook_attempt_claim",
  "webhook_attempt_finish",
  "webhook_attempt_list_by_delivery",
  "operator_notification_insert",
  "operator_notification_list_page",
]);

/** The message and its deliveries (`deliveryIds[i]` to `endpointIds[i]`), in one statement. */
export const insertMessage = (
  db: Db,
  t: Tenant,
  m: { id: string; type: string; body: string; at: Date; deliveryIds: string[]; endpointIds: string[] },
) =>
  run<{ id: string; endpoint_id: string }>(db, Q.webhook_message_insert, [
    m.id,
    t.teamId,
    t.environment,
    m.type,
    m.body,
    m.at,
    m.deliveryIds,
    m.endpointIds,
  ]);
export const findMessage = (db: Db, t: Tenant, id: string) => runOne<MessageRow>(db, Q.webhook_message_find_by_id, [t.teamId, t.environment, id]);

export const insertDelivery = (db: Db, t: Tenant, d: { id: string; endpointId: string; messageId: string }, now: Date) =>
  runOne<{ id: string }>(db, Q.webhook_delivery_insert, [d.id, t.teamId, t.environment, d.endpointId, d.messageId, now]);

/** One page of an endpoint's deliveries, newest first: those before `beforeSeq`, only `status` when given. */
export interface DeliveryPage {
  beforeSeq: bigint | null;
  limit: number;
  status: DeliveryStatus | null;
}

export const listDeliveryPage = (db: Db, t: Tenant, endpointId: string, p: DeliveryPage) =>
  run<DeliveryRow>(db, Q.webhook_delivery_list_page, [t.teamId, t.environment, endpointId, p.beforeSeq, p.limit, p.status]);
export const findDelivery = (db: Db, t: Tenant, id: string) => runOne<DeliveryRow>(db, Q.webhook_delivery_find_by_id, [t.teamId, t.environment, id]);

export interface AttemptTarget {
  id: string;
  status: DeliveryStatus;
  attempts: number;
  first_attempt_at: Date | null;
  message_id: string;
  body: string;
  endpoint_id: string;
  url: string;
  enabled: boolean;
  secret_sealed: Sealed;
  previous_secret_sealed: Sealed | null;
  previous_expires_at: Date | null;
}
export const loadAttemptTarget = (db: Db, t: Tenant, deliveryId: string) =>
  runOne<AttemptTarget>(db, Q.webhook_delivery_load_for_attempt, [t.teamId, t.environment, deliveryId]);

export interface AttemptOutcome {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

/** What an attempt made of its delivery: its status now, and when the next attempt runs (none when settled). */
export interface DeliveryRecord {
  id: string;
  attempt: number;
  status: DeliveryStatus;
  outcome: AttemptOutcome;
  nextAttemptAt: Date | null;
  at: Date;
}

export const recordDelivery = (db: Db, t: Tenant, r: DeliveryRecord) =>
  runOne<{ first_attempt_at: Date }>(db, Q.webhook_delivery_record, [
    t.teamId,
    t.environment,
    r.id,
    r.attempt,
    r.status,
    r.outcome.statusCode,
    r.outcome.latencyMs,
    r.outcome.error,
    r.nextAttemptAt,
    r.at,
  ]);
export const skipDelivery = (db: Db, t: Tenant, id: string, skip: { reason: string; now: Date }) =>
  run(db, Q.webhook_delivery_skip, [t.teamId, t.environment, id, skip.reason, skip.now]);
export const succeededSince = async (db: Db, t: Tenant, endpointId: string, since: Date) =>
  (await runOne<{ succeeded: boolean }>(db, Q.webhook_delivery_success_since, [t.teamId, t.environment, endpointId, since]))!.succeeded;

/** Attempt `attempt` of a delivery, as held by the run whose random token is `claim`. */
export interface AttemptClaim {
  deliveryId: string;
  attempt: number;
  claim: string;
}

/** "claimed": this run sends attempt n; "finished": it was made; "other": another run holds it now. */
export async function claimAttempt(db: Db, t: Tenant, a: AttemptClaim, lease: { now: Date; leaseMs: number }) {
  const { claim } = a;
  const row = await runOne<{ claim: string; finished: boolean }>(db, Q.webhook_attempt_claim, [
    a.deliveryId,
    a.attempt,
    t.teamId,
    t.environment,
    claim,
    lease.now,
    lease.leaseMs,
  ]);
  if (!row) return "other" as const; // another tenant's delivery id: never ours
  return row.finished ? ("finished" as const) : row.claim === claim ? ("claimed" as const) : ("other" as const);
}
export const finishAttempt = async (db: Db, t: Tenant, a: AttemptClaim, o: AttemptOutcome & { at: Date }) =>
  (await runOne(db, Q.webhook_attempt_finish, [
    t.teamId,
    t.environment,
    a.deliveryId,
    a.attempt,
    a.claim,
    o.at,
    o.statusCode,
    o.latencyMs,
    o.error,
    o.responseExcerpt,
  ])) !== undefined;
export const listAttempts = (db: Db, t: Tenant, deliveryId: string) =>
  run<AttemptRow>(db, Q.webhook_attempt_list_by_delivery, [t.teamId, t.environment, deliveryId]);
export const insertNotification = (
  db: Db,
  t: Tenant,
  n: { id: string; kind: string; resourceType: string; resourceId: string; message: string; details: Record<string, unknown> },
  now: Date,
) => run(db, Q.operator_notification_insert, [n.id, t.teamId, t.environment, n.kind, n.resourceType, n.resourceId, n.message, n.details, now]);
export const listNotificationPage = (db: Db, t: Tenant, resourceType: string, page: { beforeSeq: bigint | null; limit: number }) =>
  run<NotificationRow>(db, Q.operator_notification_list_page, [t.teamId, t.environment, resourceType, page.beforeSeq, page.limit]);
