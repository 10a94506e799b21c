/** The operator's teams (GET /dashboard/teams) and the team switch (POST /dashboard/session/team). */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { browser, cookieOf, newOperator, newTeamWithOwner } from "../helpers/dashboard";
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

const auditOf = async (teamId: string, action: string) => [
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

test("a switch ends the session and starts one in the other team with the roles held there, audited in both teams", async () => {
  const { teamId, otherId, owner } = await twoTeams();
  const o = await browser(t, owner.email);
  const res = await o.write("POST", "/dashboard/session/team", { teamId: otherId });
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ team: { id: otherId, name: "Second team" }, roles: ["catalog:read"], environment: "development" });
  expect(res.headers.get("set-cookie")).toContain("HttpOnly; SameSite=Strict");
  const next = cookieOf(res);
  expect(next).not.toBe(o.session);
  // The old session is over; the new one acts in the other team.
  expect((await o.read("/dashboard/session")).status).toBe(401);
  const session = await t.call("GET", "/dashboard/session", { cookie: `be_session=${next}` });
  expect(session.body.data.team.id).toBe(otherId);
  expect(session.body.data.csrfToken).toBe(res.body.data.csrfToken);
  // The new session's roles are the other team's: no members:read there.
  expect((await t.call("GET", "/dashboard/members", { cookie: `be_session=${next}` })).status).toBe(403);

  const left = await auditOf(teamId, "dashboard_session.switch_team");
  expect(left).toEqual([{ environment: "development", actor_id: owner.id, details: { toTeamId: otherId } }]);
  const joined = await auditOf(otherId, "dashboard_session.sign_in");
  expect(joined.map((r) => r.details.method)).toEqual(["team_switch"]);
});

test("404 for a team the operator is not a member of (existing or not), and the session stays", async () => {
  const { owner } = await twoTeams();
  const stranger = await newTeamWithOwner(t);
  const o = await browser(t, owner.email);
  for (const teamId of [stranger.teamId, "team_does_not_exist"]) {
    const res = await o.write("POST", "/dashboard/session/team", { teamId });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(`You are not a member of team ${teamId}`);
    expect(res.headers.get("set-cookie")).toBeNull();
  }
  expect((await o.read("/dashboard/session")).status).toBe(200);
  expect(await auditOf(stranger.teamId, "dashboard_session.sign_in")).toEqual([]); // nothing started there
});

test("a removed membership cannot be switched to; a bad body is a 400; the cookie write needs its CSRF token", async () => {
  const { teamId, otherId, owner } = await twoTeams();
  const o = await browser(t, owner.email);
  const bad = await o.write("POST", "/dashboard/session/team", {});
  expect(bad.status).toBe(400);
  const noCsrf = await t.call("POST", "/dashboard/session/team", { cookie: `be_session=${o.session}`, body: { teamId: otherId } });
  expect(noCsrf.status).toBe(403);
  expect(noCsrf.body.code).toBe("csrf_failed");
  // Removed from the other team by its owner: the switch is refused.
  const otherMembers = await t.db.sql`select id from team_members where team_id = ${otherId} and status = 'active'`;
  await t.db.sql`update team_members set status = 'removed' where id = ${otherMembers[0]!.id}`;
  expect((await o.write("POST", "/dashboard/session/team", { teamId: otherId })).status).toBe(404);
  expect((await o.read("/dashboard/session")).body.data.team.id).toBe(teamId);
});
