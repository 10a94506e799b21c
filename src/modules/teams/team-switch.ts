/**
 * An operator's teams, and switching between them (docs/dashboard-sign-in.md): the list is the signed-in
 * operator's own active memberships; a switch ends this session and starts one for the same operator in
 * another team where they are a member, without asking for the password again (docs/decisions.md).
 */
import type { Sql } from "../../db/client";
import type { Principal } from "../../auth/kinds";
import { apiError } from "../../lib/errors";
import { recordAudit, type Actor } from "../audit/repo";
import { findMembership, findOperatorById, listOperatorMemberships, notifyRevoked, revokeSessionRow } from "./repo";
import { startSession, type SignedIn, type SignInSettings } from "./sign-in";

/** The signed-in operator's memberships, oldest first; `current` marks the session's team. */
export async function listOperatorTeams(sql: Sql, principal: Principal) {
  const rows = principal.operatorId ? await listOperatorMemberships(sql, principal.operatorId) : [];
  return rows.map((r) => ({
    id: r.team_id,
    name: r.team_name,
    memberId: r.id,
    roles: r.roles,
    current: r.team_id === principal.teamId,
    joinedAt: r.created_at.toISOString(),
  }));
}

const notMember = (teamId: string) => apiError("not_found", `You are not a member of team ${teamId}`);

/**
 * Ends `principal`'s session and starts one for the same operator in `teamId` (in its development
 * environment, as every sign-in starts). 404 when the operator is not an active member there (the same
 * answer whether or not the team exists). Audited in both teams: `dashboard_session.switch_team` in the
 * one left (in the environment the session was in), the new session's `dashboard_session.sign_in`
 * (method `team_switch`) in the one joined.
 */
export async function switchTeam(
  sql: Sql,
  principal: Principal,
  { teamId, actor, settings: s }: { teamId: string; actor: Actor; settings: SignInSettings },
): Promise<SignedIn> {
  if (!principal.operatorId) throw notMember(teamId);
  const operatorId = principal.operatorId;
  return sql.begin(async (tx) => {
    const member = await findMembership(tx, operatorId, teamId);
    const operator = await findOperatorById(tx, operatorId);
    if (!member || !operator) throw notMember(teamId);
    await revokeSessionRow(tx, principal, principal.credentialId);
    const leave = () =>
      recordAudit(tx, {
        teamId: principal.teamId,
        environment: principal.environment,
        actor,
        action: "dashboard_session.switch_team",
        resourceType: "dashboard_session",
        resourceId: principal.credentialId,
        details: { toTeamId: teamId },
      });
    const join = () => startSession(tx, { operator, member: { id: member.id, teamId: member.team_id }, method: "team_switch" }, s);
    // Each audit entry holds its chain's lock until commit: two teams' chains are always taken in team id
    // order, so two switches in opposite directions cannot deadlock.
    let signedIn: SignedIn;
    if (principal.teamId <= teamId) {
      await leave();
      signedIn = await join();
    } else {
      signedIn = await join();
      await leave();
    }
    await notifyRevoked(tx, principal.credentialId);
    return signedIn;
  });
}
