/**
 * Dashboard sessions: a member's, in one of the team's environments at a time (switchable). The raw
 * session token (`dsess_…`, sent as the be_session cookie or a bearer) is returned once, at sign-in, with
 * its CSRF token (derived from it: src/auth/csrf.ts); only the session token's SHA-256 is stored. Sessions expire after an absolute lifetime and are
 * revoked by sign-out or by the member's removal.
 */
import type { Db } from "../../db/queries";
import type { Sql } from "../../db/client";
import type { Principal } from "../../auth/kinds";
import { DASHBOARD_SESSION_PREFIX } from "../../auth/key-format";
import { csrfTokenFor } from "../../auth/csrf";
import { newId, randomToken } from "../../lib/ids";
import { sha256Hex } from "../../lib/hash";
import { apiError } from "../../lib/errors";
import type { Environment } from "../../lib/tenant";
import { recordAudit, type Actor } from "../audit/repo";
import { findSessionView, insertSessionRow, notifyRevoked, revokeSessionRow, setSessionEnvironment } from "./repo";

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
  const row = await insertSessionRow(db, {
    id: newId("dsess"),
    teamId: owner.teamId,
    environment: owner.environment,
    email: owner.email,
    tokenHash: sha256Hex(token),
    expiresAt: new Date(now + ttlMs),
    operatorId: owner.operatorId,
    memberId: owner.memberId,
  });
  return { id: row!.id, token, csrfToken: csrfTokenFor(token), expiresAt: row!.expires_at };
}

/** What GET /dashboard/session (and sign-in) answer, less the CSRF token the route adds: never the session token. */
export async function describeSession(db: Db, teamId: string, environment: Environment, sessionId: string) {
  const r = await findSessionView(db, { teamId, environment }, sessionId);
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
    await revokeSessionRow(tx, principal, principal.credentialId);
    await recordAudit(tx, sessionAudit(principal, actor, "dashboard_session.sign_out"));
    await notifyRevoked(tx, principal.credentialId);
  });
}

/** Moves a session to the team's other environment (every route then acts there). */
export async function switchEnvironment(sql: Sql, principal: Principal, environment: Environment, actor: Actor) {
  await sql.begin(async (tx) => {
    if (environment !== principal.environment) {
      const row = await setSessionEnvironment(tx, principal, principal.credentialId, environment);
      if (!row) throw apiError("revoked_credentials", "Dashboard session has been revoked");
    }
    await recordAudit(tx, {
      ...sessionAudit(principal, actor, "dashboard_session.switch_environment", { from: principal.environment }),
      environment,
    });
    await notifyRevoked(tx, principal.credentialId);
  });
  return describeSession(sql, principal.teamId, environment, principal.credentialId);
}
