/** The operator's teams (GET /dashboard/teams); switching to one is a sign-in with its teamId and the password. */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { PASSWORD, browser, newOperator, newTeamWithOwner } from "../helpers/dashboard";
import { createTeam } from "../../src/modules/teams/team";
import { createDashboardSession } from "../../src/modules/teams/automation-session";

const t = await createTestApp({ TRUST_PROXY: "true" });

/** An operator who owns one team and is a catalog reader in another. */
async function twoTeams() {
  const { teamId, owner } = await newTeamWithOwner(t);
  const other = await createTeam(t.db.sql, "Second team");
  await createDashboardSession(
    t.db.sql,
    { teamId: other.id, environment: "development", userEmail: owner.email, roles: ["catalog:read"] },
    t.clock.now(),
  );
  return { teamId, otherId: other.id, owner };
}

const _auditOf = async (teamId: string, action: string) => [
  ...(await t.db.sql`select environment, actor_id, details from audit_log where team_id = ${teamId} and action = ${action} order by chain_seq`),
];

test("lists the signed-in operator's own teams with their roles, the session's team marked current", async () => {
  const { teamId, otherId, owner } = await twoTeams();
  const stranger = await newTeamWithOwner(t); // another operator's team: never listed
  const o = await browser(t, owner.email);
  const res = await o.read("/dashboard/teams");
  expect(res.status).toBe(200);
  expect(res.body.data.map((x: { id: string; name: string; roles: string[]; current: boolean }) => [x.id, x.name, x.roles, x.current])).toEqual([
    [teamId, "Dashboard team", ["owner"], true],
    [otherId, "Second team", ["catalog:read"], false],
  ]);
  expect(res.body.data.some((x: { id: string }) => x.id === stranger.teamId)).toBe(false);
  // A member with a single read role lists theirs too (no role needed).
  const reader = await newOperator(t, teamId, ["catalog:read"]);
  const r = await browser(t, reader.email);
  expect((await r.read("/dashboard/teams")).body.data.map((x: { id: string }) => x.id)).toEqual([teamId]);
});

test("switching team is a sign-in with the password: no route makes a session in another team from this one", async () => {
  const { otherId, owner } = await twoTeams();
  const narrow = await createDashboardSession(
    t.db.sql,
    { teamId: (await createTeam(t.db.sql, "Automation team")).id, environment: "development", userEmail: owner.email, roles: ["audit:read"] },
    t.clock.now(),
  );
  // A narrow session (made for automation, never proved the password) asking for the owner's other team: no such route.
  const asked = await t.call("POST", "/dashboard/session/team", { token: narrow.session, body: { teamId: otherId } });
  expect(asked.status).toBe(404);
  // The password says who the operator is; the teamId picks the membership and its roles.
  const wrong = await t.call("POST", "/dashboard/sign-in", { body: { email: owner.email, password: "not the password", teamId: otherId } });
  expect(wrong.status).toBe(401);
  const signedIn = await t.call("POST", "/dashboard/sign-in", { body: { email: owner.email, password: PASSWORD, teamId: otherId } });
  expect(signedIn.status).toBe(200);
  expect(signedIn.body.data.team.id).toBe(otherId);
  expect(signedIn.body.data.roles).toEqual(["catalog:read"]);
});

test("an invitation's acceptUrl is the dashboard's accept page at the address the caller reached (behind a trusted proxy), the token in the fragment", async () => {
  const { owner } = await twoTeams();
  const o = await browser(t, owner.email);
  const res = await t.call("POST", "/dashboard/members", {
    cookie: `be_session=${o.session}`,
    headers: { "x-csrf-token": o.csrf, "x-forwarded-proto": "https", "x-forwarded-host": "billing.example" },
    body: { email: "invited@test.dev", roles: ["catalog:read"] },
  });
  expect(res.status).toBe(201);
  expect(res.body.data.acceptUrl).toBe(`https://billing.example/dashboard/invitations/accept#token=${res.body.data.token}`);
});
