/**
 * The signed-in operator's teams (docs/dashboard-sign-in.md): any dashboard session lists its own operator's
 * memberships. Switching team is a sign-in with a `teamId` (POST /dashboard/sign-in): the password, not this session.
 */
import { Elysia, t } from "elysia";
import { authPlugin } from "../../../http/auth";
import { listOperatorTeams } from "../../teams/operator-teams";
import type { DashboardDeps } from "../sessions/routes";
import { OperatorTeam } from "../schemas";
import { data } from "../../../http/envelope";

const TAGS = ["Dashboard"];

export function teamRoutes(deps: DashboardDeps) {
  return new Elysia()
    .use(authPlugin(deps))
    .get("/dashboard/teams", async ({ principal }) => ({ data: await listOperatorTeams(deps.sql, principal) }), {
      access: true,
      response: { 200: data(t.Array(OperatorTeam)) },
      detail: {
        tags: TAGS,
        summary: "List the signed-in operator's teams, with their roles in each (dashboard session only)",
        description: "The operator's active memberships, oldest first, the session's own team marked `current`. Any member may list their own.",
      },
    });
}
