/**
 * The teams domain's statements: teams, operators, memberships, invitations, dashboard sessions, sign-in
 * links and their throttle, API keys. Rules (who may change what, the last owner, the throttle's limits)
 * live in the verb files that call these.
 */
import { queries, run, runOne, type Db } from "../../db/queries";
import type { Environment, Tenant } from "../../lib/tenant";
import type { InvitationRow, KeyRow, MemberRow, MembershipRow, OperatorRow, SessionViewRow } from "./rows";

const Q = queries([
  "team_insert",
  "team_find_by_id",
  "operator_insert",
  "operator_find_by_email",
  "operator_find_by_id",
  "team_member_insert",
  "team_member_list_by_team",
  "team_member_lock_active",
  "team_member_set_roles",
  "team_member_remove",
  "team_member_find_for_sign_in",
  "team_member_list_by_operator",
  "team_invitation_insert",
  "team_invitation_accept",
  "team_invitation_list_pending",
  "dashboard_session_insert",
  "dashboard_session_find_by_id",
  "dashboard_session_revoke",
  "dashboard_session_revoke_by_member",
  "dashboard_session_set_environment",
  "sign_in_link_insert",
  "sign_in_link_use",
  "sign_in_scope_lock",
  "sign_in_failure_count",
  "sign_in_failure_insert",
  "sign_in_failure_release",
  "sign_in_failure_clear",
  "api_key_insert",
  "api_key_list_by_team",
  "api_key_revoke",
  "credential_notify_revoked",
]);

// Teams

export const insertTeam = (db: Db, id: string, name: string) => runOne<{ id: string; name: string; created_at: Date }>(db, Q.team_insert, [id, name]);

export const findTeamRow = (db: Db, teamId: string) => runOne<{ id: string; name: string }>(db, Q.team_find_by_id, [teamId]);

// Operators

export const insertOperatorRow = (db: Db, row: { id: string; email: string; name: string; passwordHash: string }) =>
  runOne<OperatorRow>(db, Q.operator_insert, [row.id, row.email, row.name, row.passwordHash]);

export const findOperatorByEmail = (db: Db, email: string) => runOne<OperatorRow & { password_hash: string }>(db, Q.operator_find_by_email, [email]);

export const findOperatorById = (db: Db, id: string) => runOne<OperatorRow>(db, Q.operator_find_by_id, [id]);

// Members

export const listMemberRows = (db: Db, teamId: string) => run<MemberRow>(db, Q.team_member_list_by_team, [teamId]);

/** The team's active members, locked: every membership change takes this lock first. */
export const lockActiveMembers = (db: Db, teamId: string) => run<MemberRow>(db, Q.team_member_lock_active, [teamId]);

export const insertMemberRow = (db: Db, row: { id: string; teamId: string; operatorId: string; roles: string[] }) =>
  runOne<{ id: string }>(db, Q.team_member_insert, [row.id, row.teamId, row.operatorId, row.roles]);

export const setMemberRolesRow = (db: Db, teamId: string, memberId: string, roles: string[]) =>
  run(db, Q.team_member_set_roles, [teamId, memberId, roles]);

export const removeMemberRow = (db: Db, teamId: string, memberId: string) => run(db, Q.team_member_remove, [teamId, memberId]);

/** The operator's membership of `teamId` (or of any team when null), for signing in. */
export const findMembership = (db: Db, operatorId: string, teamId: string | null) =>
  runOne<MembershipRow>(db, Q.team_member_find_for_sign_in, [operatorId, teamId]);

/** The operator's active memberships in every team, with the team's name (the team switch's list). */
export const listOperatorMemberships = (db: Db, operatorId: string) =>
  run<MembershipRow & { team_name: string; created_at: Date }>(db, Q.team_member_list_by_operator, [operatorId]);

// Invitations

export const insertInvitation = (
  db: Db,
  row: { id: string; teamId: string; email: string; roles: string[]; tokenHash: string; invitedBy: string; expiresAt: Date },
) => runOne<InvitationRow>(db, Q.team_invitation_insert, [row.id, row.teamId, row.email, row.roles, row.tokenHash, row.invitedBy, row.expiresAt]);

/** Spends the invitation whose token has this hash; none when unknown, spent or expired. */
export const acceptInvitationRow = (db: Db, tokenHash: string, now: Date) => runOne<InvitationRow>(db, Q.team_invitation_accept, [tokenHash, now]);

export const listPendingInvitations = (db: Db, teamId: string, now: Date) => run<InvitationRow>(db, Q.team_invitation_list_pending, [teamId, now]);

// Dashboard sessions and sign-in links

export const insertSessionRow = (
  db: Db,
  row: {
    id: string;
    teamId: string;
    environment: Environment;
    email: string;
    tokenHash: string;
    expiresAt: Date;
    operatorId: string;
    memberId: string;
  },
) =>
  runOne<{ id: string; expires_at: Date }>(db, Q.dashboard_session_insert, [
    row.id,
    row.teamId,
    row.environment,
    row.email,
    row.tokenHash,
    row.expiresAt,
    row.operatorId,
    row.memberId,
  ]);

export const findSessionView = (db: Db, t: Tenant, sessionId: string) =>
  runOne<SessionViewRow>(db, Q.dashboard_session_find_by_id, [t.teamId, t.environment, sessionId]);

export const revokeSessionRow = (db: Db, t: Tenant, sessionId: string) => run(db, Q.dashboard_session_revoke, [t.teamId, t.environment, sessionId]);

export const revokeMemberSessions = (db: Db, teamId: string, memberId: string) =>
  run<{ id: string }>(db, Q.dashboard_session_revoke_by_member, [teamId, memberId]);

export const setSessionEnvironment = (db: Db, t: Tenant, sessionId: string, environment: Environment) =>
  runOne(db, Q.dashboard_session_set_environment, [t.teamId, t.environment, sessionId, environment]);

export const insertSignInLink = (db: Db, row: { id: string; teamId: string; operatorId: string; tokenHash: string; expiresAt: Date }) =>
  runOne<{ id: string }>(db, Q.sign_in_link_insert, [row.id, row.teamId, row.operatorId, row.tokenHash, row.expiresAt]);

/** Spends the link whose token has this hash; none when unknown, used or expired. */
export const useSignInLink = (db: Db, tokenHash: string, now: Date) =>
  runOne<{ id: string; team_id: string; operator_id: string }>(db, Q.sign_in_link_use, [tokenHash, now]);

// The failed-sign-in throttle

export const lockSignInScopes = (db: Db, scopes: string[]) => run(db, Q.sign_in_scope_lock, [scopes]);

export const countSignInFailures = (db: Db, scopes: string[], since: Date) =>
  run<{ scope: string; failures: number; oldest: Date }>(db, Q.sign_in_failure_count, [scopes, since]);

export const insertSignInFailures = (db: Db, scopes: string[], at: Date, since: Date) =>
  run<{ id: bigint }>(db, Q.sign_in_failure_insert, [scopes, at, since]);

export const releaseSignInFailures = (db: Db, ids: string[]) => run(db, Q.sign_in_failure_release, [ids]);

export const clearSignInFailures = (db: Db, scope: string) => run(db, Q.sign_in_failure_clear, [scope]);

// API keys

export const insertKey = (
  db: Db,
  row: {
    id: string;
    teamId: string;
    environment: Environment;
    name: string;
    description: string | null;
    type: string;
    prefix: string;
    keyHash: string;
    permissions: string[];
    expiresAt: Date | null;
  },
) =>
  runOne<KeyRow>(db, Q.api_key_insert, [
    row.id,
    row.teamId,
    row.environment,
    row.name,
    row.description,
    row.type,
    row.prefix,
    row.keyHash,
    row.permissions,
    row.expiresAt,
  ]);

export const listKeyRows = (db: Db, t: Tenant) => run<KeyRow>(db, Q.api_key_list_by_team, [t.teamId, t.environment]);

export const revokeKeyRow = (db: Db, t: Tenant, keyId: string) => runOne<KeyRow>(db, Q.api_key_revoke, [t.teamId, t.environment, keyId]);

/** Every instance drops the credential (a key, a session, a member's sessions) from its cache when this commits. */
export const notifyRevoked = (db: Db, credentialId: string) => run(db, Q.credential_notify_revoked, [credentialId]);
