/** Teams themselves: create one, and the check every team-scoped operator action starts with. */
import type { Db } from "../../db/queries";
import { newId } from "../../lib/ids";
import { apiError } from "../../lib/errors";
import { findTeamRow, insertTeam } from "./repo";

export async function createTeam(db: Db, name: string) {
  const team = await insertTeam(db, newId("team"), name);
  return { id: team!.id, name: team!.name, createdAt: team!.created_at.toISOString() };
}

export async function findTeam(db: Db, teamId: string) {
  const team = await findTeamRow(db, teamId);
  return team ? { id: team.id, name: team.name } : null;
}

export async function requireTeam(db: Db, teamId: string) {
  const team = await findTeam(db, teamId);
  if (!team) throw apiError("not_found", `No team ${teamId}`);
  return team;
}
