/**
 * Signing in: with email and password (throttled per account and address; an unknown email and a wrong
 * password get the same 401 after the same Argon2id work), or with a one-time link the CLI prints (valid
 * 15 minutes, spent on first use). Either starts a session in the team's development environment (the
 * session can switch), audited in that environment with the operator as actor.
 */
import type { Db } from "../../db/queries";
import type { Sql } from "../../db/client";
import { newId, randomToken } from "../../lib/ids";
import { sha256Hex } from "../../lib/hash";
import { apiError } from "../../lib/errors";
import type { Environment } from "../../lib/tenant";
import { recordAudit, recordTeamAudit, type Actor } from "../audit/repo";
import { passwordMatches } from "./operators";
import { findMembership, findOperatorByEmail, findOperatorById, insertSignInLink, useSignInLink } from "./repo";
import { describeSession, insertSession, type SessionView, type StartedSession } from "./sessions";
import { forgetAccountFailures, holdAttempt, releaseAttempt, throttleScopes } from "./throttle";
import { requireTeam } from "./team";

export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
const LINK_PREFIX = "dlink_";
const DEFAULT_ENVIRONMENT: Environment = "development";

export interface SignInSettings {
  now: number;
  sessionTtlMs: number;
  requestId: string | null;
  /** Argon2id memory cost of new hashes and of the dummy one (config PASSWORD_HASH_MEMORY_KIB) */
  passwordHashMemoryKib: number;
}

export type SignedIn = { view: SessionView & { csrfToken: string }; session: StartedSession };

const failed = () => apiError("sign_in_failed", "Email or password is incorrect");

/** Whose session starts, and how they signed in (`method`: password, link, invitation). */
export interface SessionStart {
  operator: { id: string; email: string };
  member: { id: string; teamId: string };
  method: string;
}

/** Starts the session of an operator's membership and audits it; shared by every way of signing in. */
export async function startSession(db: Db, { operator, member, method }: SessionStart, s: SignInSettings): Promise<SignedIn> {
  const owner = { teamId: member.teamId, environment: DEFAULT_ENVIRONMENT, operatorId: operator.id, memberId: member.id, email: operator.email };
  const session = await insertSession(db, owner, s.now, s.sessionTtlMs);
  const actor: Actor = { kind: "dashboard", id: operator.id, requestId: s.requestId };
  await recordAudit(db, {
    teamId: member.teamId,
    environment: DEFAULT_ENVIRONMENT,
    actor,
    action: "dashboard_session.sign_in",
    resourceType: "dashboard_session",
    resourceId: session.id,
    details: { method, memberId: member.id },
  });
  const view = await describeSession(db, member.teamId, DEFAULT_ENVIRONMENT, session.id);
  return { view: { ...view, csrfToken: session.csrfToken }, session };
}

export interface PasswordSignIn {
  email: string;
  password: string;
  teamId?: string;
}

export async function signInWithPassword(sql: Sql, input: PasswordSignIn, clientAddress: string, s: SignInSettings): Promise<SignedIn> {
  const scopes = throttleScopes(input.email, clientAddress);
  // Held as a failure until the password proves right: parallel guesses count each other.
  const held = await holdAttempt(sql, scopes, s.now);
  const operator = await findOperatorByEmail(sql, input.email.trim());
  // Always one Argon2id verification, against a dummy hash when the email is unknown.
  if (!(await passwordMatches(operator?.password_hash, input.password, s.passwordHashMemoryKib)) || !operator) throw failed();
  await releaseAttempt(sql, held);
  // The right password, but no membership (of this team): the same answer, not counted as a failure.
  const member = await findMembership(sql, operator.id, input.teamId ?? null);
  if (!member) throw failed();
  await forgetAccountFailures(sql, scopes);
  return sql.begin((tx) => startSession(tx, { operator, member: { id: member.id, teamId: member.team_id }, method: "password" }, s));
}

export async function signInWithLink(sql: Sql, token: string, s: SignInSettings): Promise<SignedIn> {
  return sql.begin(async (tx) => {
    const link = await useSignInLink(tx, sha256Hex(token), new Date(s.now));
    if (!link) throw apiError("sign_in_failed", "This sign-in link is unknown, used or expired");
    const operator = await findOperatorById(tx, link.operator_id);
    const member = await findMembership(tx, link.operator_id, link.team_id);
    // Removed since the link was made: the link dies with the membership.
    if (!operator || !member) throw apiError("sign_in_failed", "This sign-in link is unknown, used or expired");
    return startSession(tx, { operator, member: { id: member.id, teamId: member.team_id }, method: "link" }, s);
  });
}

/** `sign-in-link`: a one-time token (and the dashboard URL carrying it in its fragment) for a member. */
/** `link.dashboardUrl`: the dashboard the link opens; `link.actor`: who asked for it (audited). */
export async function createSignInLink(
  sql: Sql,
  input: { email: string; teamId: string },
  { now, actor, dashboardUrl }: { now: number; actor: Actor; dashboardUrl: string },
) {
  await requireTeam(sql, input.teamId);
  const operator = await findOperatorByEmail(sql, input.email.trim());
  const member = operator ? await findMembership(sql, operator.id, input.teamId) : undefined;
  if (!operator || !member) throw apiError("not_found", `${input.email} is not a member of team ${input.teamId}`);
  const token = `${LINK_PREFIX}${randomToken(43)}`;
  const expiresAt = new Date(now + SIGN_IN_LINK_TTL_MS);
  await sql.begin(async (tx) => {
    const link = await insertSignInLink(tx, {
      id: newId("link"),
      teamId: input.teamId,
      operatorId: operator.id,
      tokenHash: sha256Hex(token),
      expiresAt,
    });
    // Team-level, like members and invitations: a link signs into either environment.
    await recordTeamAudit(tx, {
      teamId: input.teamId,
      actor,
      action: "sign_in_link.create",
      resourceType: "sign_in_link",
      resourceId: link!.id,
      details: { operatorId: operator.id, memberId: member.id },
    });
  });
  // In the fragment: a browser never sends it to a server, so it stays out of access logs and Referer headers.
  return { url: `${dashboardUrl}/sign-in#token=${token}`, token, expiresAt: expiresAt.toISOString() };
}
