/**
 * Team members: list, change roles, remove. Every change locks the team's active members first, so two
 * concurrent changes cannot both leave the team without an owner (the last owner can neither be removed
 * nor lose `owner`). A change takes effect on the member's next request: sessions read roles from the
 * membership, and every instance evicts the member's cached sessions on the NOTIFY sent at commit.
 */
import { queries, run, runOne, type Db } from "../../db/queries";
import type { Sql } from "../../db/client";
import { newId } from "../../lib/ids";
import { apiError } from "../../lib/errors";
import { recordTeamAudit } from "../audit/repo";
import { assertMayChange, checkRoles, type MemberActor } from "./roles";

const Q = queries([
  "team_member_insert",
  "team_member_list_by_team",
  "team_member_lock_active",
  "team_member_set_roles",
  "team_member_remove",
  "dashboard_session_revoke_by_member",
  "credential_notify_revoked",
]);

export interface MemberRow {
  id: string;
  operator_id: string;
  email: string;
  name: string;
  roles: string[];
  status: string;
  created_at: Date;
}

export const presentMember = (r: MemberRow) => ({
  id: r.id,
  operatorId: r.operator_id,
  email: r.email,
  name: r.name,
  roles: r.roles,
  createdAt: r.created_at.toISOString(),
});

const owners = (members: MemberRow[]) => members.filter((m) => m.roles.includes("owner")).length;

export async function listMembers(db: Db, teamId: string) {
  return (await run<MemberRow>(db, Q.team_member_list_by_team, [teamId])).map(presentMember);
}

export async function activeMembers(db: Db, teamId: string) {
  return run<MemberRow>(db, Q.team_member_list_by_team, [teamId]);
}

/** Adds an operator to a team (409 when already an active member). Returns the membership id. */
export async function insertMember(db: Db, teamId: string, operatorId: string, roles: string[]): Promise<string> {
  const row = await runOne<{ id: string }>(db, Q.team_member_insert, [newId("mem"), teamId, operatorId, checkRoles(roles)]);
  return row!.id;
}

async function lockTarget(db: Db, teamId: string, memberId: string) {
  const members = await run<MemberRow>(db, Q.team_member_lock_active, [teamId]);
  const target = members.find((m) => m.id === memberId);
  if (!target) throw apiError("not_found", `No member ${memberId} in this team`);
  return { members, target };
}

/**
 * Replaces a member's roles inside the caller's transaction, under the team's member lock and the rules of
 * who may change what and of the last owner: the one path every role change takes (the routes, the CLI's
 * `member roles`, and `session create` for an existing member), so none can leave a team without an owner.
 */
export async function changeRoles(tx: Db, teamId: string, by: MemberActor, memberId: string, requested: string[]) {
  const roles = checkRoles(requested);
  const { members, target } = await lockTarget(tx, teamId, memberId);
  assertMayChange(by, target.roles, roles);
  if (target.roles.includes("owner") && !roles.includes("owner") && owners(members) === 1)
    throw apiError("last_owner", "The team's last owner cannot lose the owner role");
  await run(tx, Q.team_member_set_roles, [teamId, memberId, roles]);
  await recordTeamAudit(tx, {
    teamId,
    actor: by.actor,
    action: "member.roles_change",
    resourceType: "member",
    resourceId: memberId,
    details: { operatorId: target.operator_id, before: target.roles, after: roles },
  });
  // Every instance drops the member's cached sessions when this commits.
  await run(tx, Q.credential_notify_revoked, [memberId]);
  return presentMember({ ...target, roles });
}

export function setMemberRoles(sql: Sql, teamId: string, by: MemberActor, memberId: string, requested: string[]) {
  checkRoles(requested); // a 400 before any lock is taken
  return sql.begin((tx) => changeRoles(tx, teamId, by, memberId, requested));
}

/** Removes a member and revokes every session they hold, in both environments. */
export async function removeMember(sql: Sql, teamId: string, by: MemberActor, memberId: string) {
  return sql.begin(async (tx) => {
    const { members, target } = await lockTarget(tx, teamId, memberId);
    assertMayChange(by, target.roles, []);
    if (target.roles.includes("owner") && owners(members) === 1) throw apiError("last_owner", "The team's last owner cannot be removed");
    await run(tx, Q.team_member_remove, [teamId, memberId]);
    const revoked = await run<{ id: string }>(tx, Q.dashboard_session_revoke_by_member, [teamId, memberId]);
    await recordTeamAudit(tx, {
      teamId,
      actor: by.actor,
      action: "member.remove",
      resourceType: "member",
      resourceId: memberId,
      details: { operatorId: target.operator_id, roles: target.roles, sessionsRevoked: revoked.length },
    });
    await run(tx, Q.credential_notify_revoked, [memberId]);
    return presentMember(target);
  });
}
