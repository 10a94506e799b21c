/** The dashboard's server side, under /api/v1/dashboard: sign-in and sessions, members, API keys, the operator's teams (docs/dashboard-sign-in.md). */
import { Elysia } from "elysia";
import { keyRoutes } from "./keys/routes";
import { memberRoutes } from "./members/routes";
import { sessionRoutes, type DashboardDeps } from "./sessions/routes";
import { teamRoutes } from "./teams/routes";

export function dashboardRoutes(deps: DashboardDeps) {
  return new Elysia().use(sessionRoutes(deps)).use(memberRoutes(deps)).use(keyRoutes(deps)).use(teamRoutes(deps));
}
