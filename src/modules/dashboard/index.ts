/** The dashboard's server side, under /api/v1/dashboard: sign-in and sessions, members, API keys (README "Dashboard sign-in"). */
import { Elysia } from "elysia";
import { keyRoutes } from "./key-routes";
import { memberRoutes } from "./member-routes";
import { sessionRoutes, type DashboardDeps } from "./session-routes";

export function dashboardRoutes(deps: DashboardDeps) {
  return new Elysia().use(sessionRoutes(deps)).use(memberRoutes(deps)).use(keyRoutes(deps));
}
