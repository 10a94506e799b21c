/**
 * Dashboard sessions: a member's, in one of the team's environments at a time (switchable). The raw
 * session token (`dsess_…`, sent as the be_session cookie or a bearer) is returned once, at sign-in, with
 * its CSRF token (derived from it: src/auth/csrf.ts); only the session token's SHA-256 is stored. Sessions expire after an absolute lifetime and are
 * revoked by sign-out or by the member's removal.
 */
import { queries, run, runOne, type Db } from "../../db/queries";
import type { Sql } from "../../db/client";
import type { Principal } from "../../auth/kinds";
import { DASHBOARD_SESSION_PREFIX } from "../../auth/key-format";
import { csrfTokenFor } from "../../auth/csrf";
import { newId, randomToken } from "../../lib/ids";
import { sha256Hex } from "../../lib/hash";
import { apiError } from "../../lib/errors";
import type { Environment } from "../../lib/tenant";
import { recordAudit, type Actor } from "../audit/repo";

const Q = queries([
  "dashboard_session_insert",
  "dashboard_session_find_by_id",
  "dashboard_session_revoke",
  "dashboard_session_set_environment",
  "credential_notify_revoked",
]);

export interface SessionOwner {
  teamId: string;
  environment: Environment;
  operatorId: string;
  memberId: string;
  email: string;
}

/** A new session's secrets: shown once, to whoever signed in. */
export interface StartedSession {
  id: string;
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

export async function insertSession(db: Db, owner: SessionOwner, now: number, ttlMs: number): Promise<StartedSession> {
  const token = `${DASHBOARD_SESSION_PREFIX}${randomToken(48)}`;
  const row = await runOne<{ id: string; expires_at: Date }>(db, Q.dashboard_session_insert, [
    newId("dsess"),
    owner.teamId,
    owner.environment,
    owner.email,
    sha256Hex(token),
    new Date(now + ttlMs),
    owner.operatorId,
    owner.memberId,
  ]);
  return { id: row!.id, token, csrfToken: csrfTokenFor(token), expiresAt: row!.expires_at };
}

interface SessionViewRow {
  id: string;
  environment: Environment;
  expires_at: Date;
  member_id: string;
  roles: string[];
  team_id: string;
  team_name: string;
  operator_id: string;
  email: string;
  name: string;
}

/** What GET /dashboard/session (and sign-in) answer, less the CSRF token the route adds: never the session token. */
export async function describeSession(db: Db, teamId: string, environment: Environment, sessionId: string) {
  const r = await runOne<SessionViewRow>(db, Q.dashboard_session_find_by_id, [teamId, environment, sessionId]);
  if (!r) throw apiError("revoked_credentials", "Dashboard session has been revoked");
  return {
    id: r.id,
    operator: { id: r.operator_id, email: r.email, name: r.name },
    team: { id: r.team_id, name: r.team_name },
    memberId: r.member_id,
    environment: r.environment,
    roles: r.roles,
    expiresAt: r.expires_at.toISOString(),
  };
}

export type SessionView = Awaited<ReturnType<typeof describeSession>>;

const sessionAudit = (principal: Principal, actor: Actor, action: string, details?: Record<string, unknown>) => ({
  teamId: principal.teamId,
  environment: principal.environment,
  actor,
  action,
  resourceType: "dashboard_session",
  resourceId: principal.credentialId,
  details,
});

/** Sign-out: the session stops working on every instance at once. */
export async function signOut(sql: Sql, principal: Principal, actor: Actor): Promise<void> {
  await sql.begin(async (tx) => {
    await run(tx, Q.dashboard_session_revoke, [principal.teamId, principal.environment, principal.credentialId]);
    await recordAudit(tx, sessionAudit(principal, actor, "dashboard_session.sign_out"));
    await run(tx, Q.credential_notify_revoked, [principal.credentialId]);
  });
}

/** Moves a session to the team's other environment (every route then acts there). */
export async function switchEnvironment(sql: Sql, principal: Principal, environment: Environment, actor: Actor) {
  await sql.begin(async (tx) => {
    if (environment !== principal.environment) {
      const row = await runOne(tx, Q.dashboard_session_set_environment, [
        principal.teamId,
        principal.environment,
        principal.credentialId,
        environment,
      ]);
      if (!row) throw apiError("revoked_credentials", "Dashboard session has been revoked");
    }
    await recordAudit(tx, {
      ...sessionAudit(principal, actor, "dashboard_session.switch_environment", { from: principal.environment }),
      environment,
    });
    await run(tx, Q.credential_notify_revoked, [principal.credentialId]);
  });
  return describeSession(sql, principal.teamId, environment, principal.credentialId);
}
