/** Dashboard operators for the dashboard route tests: a team with an owner who signs in with a password. */
import { createDashboardSession } from "../../src/modules/teams/automation-session";
import { createTeam } from "../../src/modules/teams/team";
import { createOperator } from "../../src/modules/teams/operators";
import { randomToken } from "../../src/lib/ids";
import type { CallResult, TestApp } from "./app";

export const PASSWORD = "correct horse battery staple";

/** A fresh address per caller, so the per-address throttle of one test never reaches another (TRUST_PROXY=true). */
export const address = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}-${randomToken(6)}`;

/** An operator with a password, member of `teamId` with `roles`. */
export async function newOperator(t: TestApp, teamId: string, roles: string[], email = `op-${randomToken(8).toLowerCase()}@test.dev`) {
  const operator = await createOperator(t.db.sql, { email, name: "Test Operator", password: PASSWORD }, t.config.passwordHashMemoryKib);
  const { memberId } = await createDashboardSession(t.db.sql, { teamId, environment: "development", userEmail: email, roles }, t.clock.now());
  return { ...operator, memberId };
}

export async function newTeamWithOwner(t: TestApp) {
  const team = await createTeam(t.db.sql, "Dashboard team");
  const owner = await newOperator(t, team.id, ["owner"]);
  return { teamId: team.id, owner };
}

export function signIn(t: TestApp, email: string, password = PASSWORD, from = address(), teamId?: string) {
  return t.call("POST", "/dashboard/sign-in", { body: { email, password, ...(teamId ? { teamId } : {}) }, headers: { "x-forwarded-for": from } });
}

/** The be_session value a response set. */
export const cookieOf = (res: CallResult) => /be_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")?.[1] ?? "";

/** A signed-in browser: the cookie, and the CSRF token for writes. */
export async function browser(t: TestApp, email: string) {
  const res = await signIn(t, email);
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  const session = cookieOf(res);
  const csrf = res.body.data.csrfToken as string;
  return {
    session,
    csrf,
    res,
    read: (path: string) => t.call("GET", path, { cookie: `be_session=${session}` }),
    write: (method: string, path: string, body?: unknown) =>
      t.call(method, path, { cookie: `be_session=${session}`, headers: { "x-csrf-token": csrf }, body }),
  };
}
