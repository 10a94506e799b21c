/**
 * One catalog write: the change, its audit record (with the actor: a route's `actorOf(principal,
 * requestId)`, the CLI's OPERATOR) and the tenant's catalog change notice, in one transaction, so /check
 * on every instance drops its snapshot at commit and a rolled-back change leaves no trace.
 */
import type { Sql } from "../../db/client";
import type { AuthDeps } from "../../http/auth";
import type { Clock } from "../../lib/clock";
import type { Db } from "../../db/queries";
import type { ChainRegistry } from "../../lib/networks";
import type { Tenant } from "../../lib/tenant";
import { recordAudit, type Actor } from "../audit/repo";
import { publishCatalogChanged } from "../changes/publish";
import { OPERATOR } from "../teams/roles";

/** What the catalog services need: the database, the chain registry (currencies, networks) and the time. */
export interface CatalogDeps {
  sql: Sql;
  chains: ChainRegistry;
  now(): Date;
  /** Prefix of the field paths a 400 names: "body" for a route (when not given), "" for the CLI (its option names). */
  fieldPrefix?: string;
}

/** What the catalog's routes need; the service's wiring (src/app-deps.ts) provides it (entitlements: this instance's caches). */
export type RouteDeps = AuthDeps & {
  sql: Sql;
  clock: Clock;
  config: { tokenSigningSecret: string; chains: ChainRegistry };
  entitlements: { catalogChanged(tenant: Tenant): void };
};

export const catalogDeps = (deps: RouteDeps): CatalogDeps => ({
  sql: deps.sql,
  chains: deps.config.chains,
  now: () => new Date(deps.clock.now()),
});

export interface Audited<T> {
  result: T;
  resourceId: string;
  details?: Record<string, unknown>;
}

/** What an audited write records: who made it, the action and the kind of resource it changed. */
export interface AuditedAction {
  actor: Actor;
  action: string;
  resourceType: string;
}

/**
 * The change, its audit record and a change notice in one transaction: the one shape of an audited write
 * (catalog changes publish the catalog notice; a company's plan and overrides publish the company's).
 */
export function auditedWrite<T>(
  sql: Sql,
  tenant: Tenant,
  what: AuditedAction & { publish: (tx: Db) => Promise<void> },
  work: (tx: Db) => Promise<Audited<T>>,
): Promise<T> {
  return sql.begin(async (tx) => {
    const done = await work(tx);
    const { actor, action, resourceType } = what;
    await recordAudit(tx, { ...tenant, actor, action, resourceType, resourceId: done.resourceId, details: done.details });
    await what.publish(tx);
    return done.result;
  }) as Promise<T>;
}

export const catalogWrite = <T>(sql: Sql, tenant: Tenant, what: AuditedAction, work: (tx: Db) => Promise<Audited<T>>) =>
  auditedWrite(sql, tenant, { ...what, publish: (tx) => publishCatalogChanged(tx, tenant) }, work);

/** A unique violation on the given table (PostgreSQL 23505), to answer 409 with a message of our own. */
export const isUniqueViolation = (error: unknown, table: string): boolean =>
  typeof error === "object" &&
  error !== null &&
  (error as { code?: string }).code === "23505" &&
  (error as { table_name?: string }).table_name === table;

interface AuditOptions {
  /** Who made the change; the operator CLI when not given. */
  actor?: Actor;
  /** The change notice to publish in the same transaction. */
  publish?: (tx: Db) => Promise<void>;
}

/** What `audited` records: the action and the kind of resource it changed, with AuditOptions. */
interface AuditedChange extends AuditOptions {
  action: string;
  resourceType: string;
}

/** `auditedWrite` for a change whose result names the resource by its `id`; the CLI's actor unless told. */
export function audited<T extends { id: string }>(sql: Sql, tenant: Tenant, what: AuditedChange, work: (tx: Db) => Promise<T>): Promise<T> {
  const named = async (tx: Db) => {
    const result = await work(tx);
    return { result, resourceId: result.id };
  };
  const { action, resourceType } = what;
  return auditedWrite(sql, tenant, { actor: what.actor ?? OPERATOR, action, resourceType, publish: what.publish ?? (async () => {}) }, named);
}

export const catalogChanged = (tenant: Tenant): AuditOptions => ({ publish: (tx) => publishCatalogChanged(tx, tenant) });
