/**
 * An operator's teams (docs/dashboard-sign-in.md): the signed-in operator's own active memberships. Switching
 * to another is a sign-in with its `teamId`, password and all (docs/decisions.md).
 */
import type { Sql } from "../../db/client";
import type { Principal } from "../../auth/kinds";
import { listOperatorMemberships } from "./repo";

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
