/** Two teams, and two environments of one team, never see each other's rows through any route. */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";

const t = await createTestApp();
const alpha = await createTeamFixture(t, "Alpha");
const beta = await createTeamFixture(t, "Beta");

// The same external ids in both teams: they must stay two different companies and users.
for (const team of [alpha, beta]) {
  const res = await t.call("POST", "/access-tokens", {
    token: team.keys.secret,
    body: { company: { id: "shared-id", email: "same@corp.test" }, user: { id: "shared-user" } },
  });
  expect(res.status).toBe(201);
}
const alphaLive = await t.call("POST", "/access-tokens", {
  token: alpha.keys.secretLive,
  body: { company: { id: "shared-id" }, user: { id: "shared-user" } },
});

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id).sort();

describe("team isolation", () => {
  test("GET /companies and GET /users return only the caller's own rows", async () => {
    const [ac, bc] = [
      await t.call("GET", "/companies", { token: alpha.keys.secret }),
      await t.call("GET", "/companies", { token: beta.keys.secret }),
    ];
    expect(ac.body.count).toBe(1);
    expect(bc.body.count).toBe(1);
    expect(ids(ac)).not.toEqual(ids(bc));
    const [au, bu] = [await t.call("GET", "/users", { token: alpha.keys.secret }), await t.call("GET", "/users", { token: beta.keys.secret })];
    expect(au.body.count).toBe(1);
    expect(ids(au)).not.toEqual(ids(bu));
  });

  test("filtering by another team's company id finds nothing", async () => {
    const betaCompany = (await t.call("GET", "/companies", { token: beta.keys.secret })).body.data[0].id;
    const res = await t.call("GET", `/users?companyId=${betaCompany}`, { token: alpha.keys.secret });
    expect(res.body.count).toBe(0);
  });

  test("naming another team's company by our id does not reach it", async () => {
    const betaCompany = (await t.call("GET", "/companies", { token: beta.keys.secret })).body.data[0].id;
    const res = await t.call("POST", "/api-keys/tokens", { token: alpha.keys.secret, body: { company: { id: betaCompany } } });
    expect(res.status).toBe(400);
    const [row] = await t.db.sql`select team_id from companies where id = ${betaCompany}`;
    expect(row!.team_id).toBe(beta.teamId);
  });

  test("GET /audit-log shows only the team's own records", async () => {
    const a = await t.call("GET", "/audit-log?limit=200", { cookie: `be_session=${alpha.dashboardAdmin}` });
    const b = await t.call("GET", "/audit-log?limit=200", { cookie: `be_session=${beta.dashboardAdmin}` });
    const alphaKeyIds = new Set(Object.values(alpha.keyIds));
    expect(a.body.data.length).toBeGreaterThan(0);
    for (const record of b.body.data) expect(alphaKeyIds.has(record.actorId)).toBe(false);
    for (const record of a.body.data) expect(record.actorId === "cli" || alphaKeyIds.has(record.actorId)).toBe(true);
  });
});

describe("environment isolation", () => {
  test("production rows are invisible to development credentials and the reverse", async () => {
    const dev = await t.call("GET", "/companies", { token: alpha.keys.secret });
    const live = await t.call("GET", "/companies", { token: alpha.keys.secretLive });
    expect(live.body.data.map((c: { id: string }) => c.id)).toEqual([alphaLive.body.companyId]);
    expect(dev.body.data.map((c: { id: string }) => c.id)).not.toContain(alphaLive.body.companyId);
  });
});
