/** Typed access to the audit log. Writes take the caller's transaction so the record commits with the change. */
import { queries, run, type Db } from "../../db/queries";
import { newId } from "../../lib/ids";
import type { Principal } from "../../auth/kinds";
import type { PageWindow } from "../../http/pagination";
import { ENVIRONMENTS, type Environment, type Tenant } from "../../lib/tenant";

import type { AuditRow, ChainRow } from "./rows";
const Q = queries(["audit_log_insert", "audit_log_list_page", "audit_log_chain_page"]);

/** Who made a change: an API credential, a dashboard session, or the operator CLI. */
export interface Actor {
  kind: string;
  id: string;
  requestId: string | null;
}

/**
 * The actor of a change made through the API: the credential, except for a dashboard session, whose
 * actor is the signed-in operator (`op_…`), the same across their sessions (the session id says little).
 */
export const actorOf = (principal: Principal, requestId: string): Actor => ({
  kind: principal.kind,
  id: principal.kind === "dashboard" && principal.operatorId ? principal.operatorId : principal.credentialId,
  requestId,
});

export interface AuditEntry {
  teamId: string;
  environment: Environment;
  actor: Actor;
  action: string;
  resourceType: string;
  resourceId: string;
  details?: Record<string, unknown>;
}

/**
 * A change to the team itself (its members, roles, invitations), which belongs to neither environment:
 * recorded in both environments' logs, so it shows whichever environment the auditor reads.
 * Each entry takes its chain's lock until commit (sql/functions/audit_log_link.sql), development before
 * production here: a transaction must write its team-level entries before any one-environment entry, or
 * two transactions could take the two chains' locks in opposite orders and deadlock.
 */
export async function recordTeamAudit(db: Db, e: Omit<AuditEntry, "environment">): Promise<void> {
  for (const environment of ENVIRONMENTS) await recordAudit(db, { ...e, environment });
}

export async function recordAudit(db: Db, e: AuditEntry): Promise<void> {
  await run(db, Q.audit_log_insert, [
    newId("aud"),
    e.teamId,
    e.environment,
    e.actor.kind,
    e.actor.id,
    e.action,
    e.resourceType,
    e.resourceId,
    e.actor.requestId,
    e.details ?? {},
  ]);
}

export interface AuditFilters {
  action?: string;
  resourceType?: string;
  resourceId?: string;
  actorId?: string;
}

export function listAuditPage(db: Db, t: Tenant, page: PageWindow, f: AuditFilters) {
  return run<AuditRow>(db, Q.audit_log_list_page, [
    t.teamId,
    t.environment,
    page.beforeSeq,
    page.fetch,
    f.action ?? null,
    f.resourceType ?? null,
    f.resourceId ?? null,
    f.actorId ?? null,
  ]);
}

/** The tenant's chain after `afterSeq`, oldest first, `limit` entries. */
export const listChainPage = (db: Db, t: { teamId: string; environment: Environment }, afterSeq: bigint, limit: number) =>
  run<ChainRow>(db, Q.audit_log_chain_page, [t.teamId, t.environment, afterSeq, limit]);
