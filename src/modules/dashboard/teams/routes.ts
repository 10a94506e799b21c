/**
 * The signed-in operator's teams and the switch between them (docs/dashboard-sign-in.md): any dashboard
 * session lists its own operator's memberships; a switch ends the session and starts one in another of them.
 */
import { Elysia, t } from "elysia";
import { authPlugin } from "../../../http/auth";
import { requestState } from "../../../http/request-context";
import { actorOf } from "../../audit/repo";
import { listOperatorTeams, switchTeam } from "../../teams/team-switch";
import { sessionCookie } from "../../../auth/session-cookie";
import type { DashboardDeps } from "../sessions/routes";
import { OperatorTeam, SignedInSession, TeamSwitchRequest } from "../schemas";
import { data } from "../../../http/envelope";
import { errorResponses } from "../../../http/error-schemas";

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
    })
    .post(
      "/dashboard/session/team",
      async ({ principal, body, request, set }) => {
        const requestId = requestState(request).requestId;
        const result = await switchTeam(deps.sql, principal, {
          teamId: body.teamId,
          actor: actorOf(principal, requestId),
          settings: {
            now: deps.clock.now(),
            sessionTtlMs: deps.config.dashboardSessionTtlMs,
            requestId,
            passwordHashMemoryKib: deps.config.passwordHashMemoryKib,
          },
        });
        deps.credentials.evict(principal.credentialId);
        const maxAge = (result.session.expiresAt.getTime() - deps.clock.now()) / 1000;
        set.headers["set-cookie"] = sessionCookie(result.session.token, maxAge, deps.config.dashboardCookieSecure);
        set.headers["cache-control"] = "no-store";
        return { data: result.view };
      },
      {
        access: true,
        body: TeamSwitchRequest,
        response: { 200: data(SignedInSession), ...errorResponses("not_found") },
        detail: {
          tags: TAGS,
          summary: "Switch to another of the operator's teams (dashboard session only)",
          description:
            "Ends this session and starts one for the same operator in `teamId`, where they must be an active member (404 otherwise, whether or not the team exists), in its development environment, as a sign-in does: sets the new session cookie and returns the new session with its new `csrfToken`. No password is asked: the operator is signed in and the membership is the grant. Audited in both teams (`dashboard_session.switch_team` in the team left, `dashboard_session.sign_in` with method `team_switch` in the team joined).",
        },
      },
    );
}
