/** Typed access to webhook endpoints (sql/queries/webhook_endpoint_*); their messages, deliveries, attempts and notifications: ../deliveries/repo.ts. */
import { queries, run, runOne, type Db } from "../../../db/queries";
import type { Tenant } from "../../../lib/tenant";
import type { EndpointRow, Sealed } from "./rows";

const Q = queries([
  "webhook_endpoint_insert",
  "webhook_endpoint_find_by_id",
  "webhook_endpoint_lock_by_id",
  "webhook_endpoint_list_page",
  "webhook_endpoint_update",
  "webhook_endpoint_delete",
  "webhook_endpoint_rotate",
  "webhook_endpoint_disable",
  "webhook_endpoint_list_targets",
]);

export interface NewEndpoint {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  secretSealed: Sealed;
}

export const insertEndpoint = (db: Db, t: Tenant, e: NewEndpoint, now: Date) =>
  runOne<EndpointRow>(db, Q.webhook_endpoint_insert, [
    e.id,
    t.teamId,
    t.environment,
    e.url,
    e.description,
    e.eventTypes,
    e.secretSealed,
    now,
  ]) as Promise<EndpointRow>;
export const findEndpoint = (db: Db, t: Tenant, id: string) => runOne<EndpointRow>(db, Q.webhook_endpoint_find_by_id, [t.teamId, t.environment, id]);
/** The endpoint, locked until the transaction ends (secret rotation reads then rewrites its secrets). */
export const lockEndpoint = (db: Db, t: Tenant, id: string) => runOne<EndpointRow>(db, Q.webhook_endpoint_lock_by_id, [t.teamId, t.environment, id]);
export const listEndpointPage = (db: Db, t: Tenant, beforeSeq: bigint | null, limit: number) =>
  run<EndpointRow>(db, Q.webhook_endpoint_list_page, [t.teamId, t.environment, beforeSeq, limit]);

export interface EndpointChange {
  url?: string;
  /** "" clears */
  description?: string;
  eventTypes?: string[];
  enabled?: boolean;
}

export const updateEndpointRow = (db: Db, t: Tenant, id: string, c: EndpointChange & { now: Date }) =>
  runOne<EndpointRow>(db, Q.webhook_endpoint_update, [
    t.teamId,
    t.environment,
    id,
    c.url ?? null,
    c.description ?? null,
    c.eventTypes ?? null,
    c.enabled ?? null,
    c.now,
  ]);
export const deleteEndpointRow = (db: Db, t: Tenant, id: string) => runOne<EndpointRow>(db, Q.webhook_endpoint_delete, [t.teamId, t.environment, id]);
/** `previous` keeps signing until `previousUntil` (both null: the old secret stops at once). */
export interface SecretRotation {
  secret: Sealed;
  previous: Sealed | null;
  previousUntil: Date | null;
  now: Date;
}

export const rotateEndpointRow = (db: Db, t: Tenant, id: string, r: SecretRotation) =>
  runOne<EndpointRow>(db, Q.webhook_endpoint_rotate, [t.teamId, t.environment, id, r.secret, r.previous, r.previousUntil, r.now]);
export const disableEndpointRow = (db: Db, t: Tenant, id: string, d: { reason: string; now: Date }) =>
  runOne<EndpointRow>(db, Q.webhook_endpoint_disable, [t.teamId, t.environment, id, d.reason, d.now]);

export const listTargets = async (db: Db, t: Tenant, type: string, only: string | null) =>
  (await run<{ id: string }>(db, Q.webhook_endpoint_list_targets, [t.teamId, t.environment, type, only])).map((r) => r.id);
