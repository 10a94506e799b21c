/**
 * Team members: list, change roles, remove. Every change locks the team's active members first, so two
 * concurrent changes cannot both leave the team without an owner (the last owner can neither be removed
 * nor lose `owner`). A change takes effect on the member's next request: sessions read roles from the
 * membership, and every instance evicts the member's cached sessions on the NOTIFY sent at commit.
 */
import type { Db } from "../../db/queries";
import type { Sql } from "../../db/client";
import { newId } from "../../lib/ids";
import { apiError } from "../../lib/errors";
import { recordTeamAudit } from "../audit/repo";
import { insertMemberRow, listMemberRows, lockActiveMembers, notifyRevoked, removeMemberRow, revokeMemberSessions, setMemberRolesRow } from "./repo";
import { assertMayChange, checkRoles, type MemberChange } from "./roles";
import type { MemberRow } from "./rows";

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
  return (await listMemberRows(db, teamId)).map(presentMember);
}

export async function activeMembers(db: Db, teamId: string) {
  return listMemberRows(db, teamId);
}

/** Adds an operator to a team (409 when already an active member). Returns the membership id. */
export async function insertMember(db: Db, teamId: string, operatorId: string, roles: string[]): Promise<string> {
  const row = await insertMemberRow(db, { id: newId("mem"), teamId, operatorId, roles: checkRoles(roles) });
  return row!.id;
}

async function lockTarget(db: Db, teamId: string, memberId: string) {
  const members = await lockActiveMembers(db, teamId);
  const target = members.find((m) => m.id === memberId);
  if (!target) throw apiError("not_found", `No member ${memberId} in this team`);
  return { members, target };
}

/**
 * Replaces a member's roles inside the caller's transaction, under the team's member lock and the rules of
 * who may change what and of the last owner: the one path every role change takes (the routes, the CLI's
 * `member roles`, and `session create` for an existing member), so none can leave a team without an owner.
 */
export async function changeRoles(tx: Db, { teamId, by }: MemberChange, memberId: string, requested: string[]) {
  const roles = checkRoles(requested);
  const { members, target } = await lockTarget(tx, teamId, memberId);
  assertMayChange(by, target.roles, roles);
  if (target.roles.includes("owner") && !roles.includes("owner") && owners(members) === 1)
    throw apiError("last_owner", "The team's last owner cannot lose the owner role");
  await setMemberRolesRow(tx, teamId, memberId, roles);
  await recordTeamAudit(tx, {
    teamId,
    actor: by.actor,
    action: "member.roles_change",
    resourceType: "member",
    resourceId: memberId,
    details: { operatorId: target.operator_id, before: target.roles, after: roles },
  });
  // Every instance drops the member's cached sessions when this commits.
  await notifyRevoked(tx, memberId);
  return presentMember({ ...target, roles });
}

export function setMemberRoles(sql: Sql, change: MemberChange, memberId: string, requested: string[]) {
  checkRoles(requested); // a 400 before any lock is taken
  return sql.begin((tx) => changeRoles(tx, change, memberId, requested));
}

/** Removes a member and revokes every session they hold, in both environments. */
export async function removeMember(sql: Sql, { teamId, by }: MemberChange, memberId: string) {
  return sql.begin(async (tx) => {
    const { members, target } = await lockTarget(tx, teamId, memberId);
    assertMayChange(by, target.roles, []);
    if (target.roles.includes("owner") && owners(members) === 1) throw apiError("last_owner", "The team's last owner cannot be removed");
    await removeMemberRow(tx, teamId, memberId);
    const revoked = await revokeMemberSessions(tx, teamId, memberId);
    await recordTeamAudit(tx, {
      teamId,
      actor: by.actor,
      action: "member.remove",
      resourceType: "member",
      resourceId: memberId,
      details: { operatorId: target.operator_id, roles: target.roles, sessionsRevoked: revoked.length },
    });
    await notifyRevoked(tx, memberId);
    return presentMember(target);
  });
}
