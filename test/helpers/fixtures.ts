/** A fresh team per test with one credential of every kind, made through the real operator services. */
import type { Sql } from "../../src/db/client";
import type { KeyType } from "../../src/auth/kinds";
import { createDashboardSession } from "../../src/modules/teams/automation-session";
import { createKey } from "../../src/modules/teams/keys";
import { createTeam } from "../../src/modules/teams/team";
import type { TestApp } from "./app";
import { type Environment } from "../../src/lib/tenant";

export interface TeamFixture {
  teamId: string;
  keys: {
    secret: string;
    secretLive: string;
    secretScoped: string;
    restricted: string;
    restrictedNoTokens: string;
    publishable: string;
    legacy: string;
  };
  keyIds: Record<string, string>;
  /** dashboard session tokens (dsess_…): send as a bearer (no CSRF token needed) or as the be_session cookie */
  dashboardAdmin: string;
  dashboardCatalog: string;
  /** their CSRF tokens: a write sent with the cookie must carry one as X-CSRF-Token (see `dashboardCookie`) */
  dashboardAdminCsrf: string;
  dashboardCatalogCsrf: string;
}

/** Call options for a dashboard session sent as the be_session cookie, with its X-CSRF-Token (writes need it). */
export const dashboardCookie = (session: string, csrfToken: string) => ({
  cookie: `be_session=${session}`,
  headers: { "x-csrf-token": csrfToken },
});

export async function newKey(
  sql: Sql,
  teamId: string,
  type: KeyType,
  environment: Environment,
  now: number,
  extra: { permissions?: string[]; expiresAt?: Date } = {},
) {
  return createKey(sql, { teamId, environment, type, name: `${type} test key`, ...extra }, now);
}

export async function createTeamFixture(t: TestApp, name = "Test team"): Promise<TeamFixture> {
  const sql = t.db.sql;
  const now = t.clock.now();
  const team = await createTeam(sql, name);
  const made = {
    secret: await newKey(sql, team.id, "SECRET", "development", now),
    secretLive: await newKey(sql, team.id, "SECRET", "production", now),
    secretScoped: await newKey(sql, team.id, "SECRET", "development", now, { permissions: ["customers.read"] }),
    restricted: await newKey(sql, team.id, "RESTRICTED", "development", now, { permissions: ["tokens.create", "customers.read"] }),
    restrictedNoTokens: await newKey(sql, team.id, "RESTRICTED", "development", now, { permissions: ["entitlements.read"] }),
    publishable: await newKey(sql, team.id, "PUBLISHABLE", "development", now),
    legacy: await newKey(sql, team.id, "LEGACY", "development", now),
  };
  const admin = await createDashboardSession(
    sql,
    { teamId: team.id, environment: "development", userEmail: "admin@test.dev", roles: ["admin"] },
    now,
  );
  const catalog = await createDashboardSession(
    sql,
    { teamId: team.id, environment: "development", userEmail: "cat@test.dev", roles: ["catalog:read"] },
    now,
  );
  const keys = Object.fromEntries(Object.entries(made).map(([k, v]) => [k, v.key])) as TeamFixture["keys"];
  const keyIds = Object.fromEntries(Object.entries(made).map(([k, v]) => [k, v.id]));
  return {
    teamId: team.id,
    keys,
    keyIds,
    dashboardAdmin: admin.session,
    dashboardCatalog: catalog.session,
    dashboardAdminCsrf: admin.csrfToken,
    dashboardCatalogCsrf: catalog.csrfToken,
  };
}
