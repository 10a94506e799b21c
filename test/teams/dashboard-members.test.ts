/** Dashboard members, roles and invitations: role checks per route, changes effective at once, removal, the last owner. */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { browser, cookieOf, newOperator, newTeamWithOwner, PASSWORD, signIn } from "../helpers/dashboard";
import { createOperator } from "../../src/modules/teams/operators";
import { listMembers } from "../../src/modules/teams/members";
import { createDashboardSession } from "../../src/modules/teams/automation-session";

const t = await createTestApp({ TRUST_PROXY: "true" });
const secrets: string[] = [];

describe("roles per route", () => {
  test("403 without keys:write; a role granted by the owner works on the member's next request, and removing it stops it", async () => {
    const { teamId, owner } = await newTeamWithOwner(t);
    const member = await newOperator(t, teamId, ["keys:read"]);
    const m = await browser(t, member.email);
    const o = await browser(t, owner.email);
    const refused = await m.write("POST", "/dashboard/api-keys", { name: "k", type: "secret" });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "Dashboard role 'keys:write' is required", code: "missing_permission" });
    expect((await m.read("/dashboard/api-keys")).status).toBe(200);
    const granted = await o.write("PATCH", `/dashboard/members/${member.memberId}`, { roles: ["keys:read", "keys:write"] });
    expect(granted.status).toBe(200);
    expect(granted.body.data.roles).toEqual(["keys:read", "keys:write"]);
    expect((await m.write("POST", "/dashboard/api-keys", { name: "k", type: "secret" })).status).toBe(201);
    expect((await m.read("/dashboard/session")).body.data.roles).toEqual(["keys:read", "keys:write"]);
    await o.write("PATCH", `/dashboard/members/${member.memberId}`, { roles: ["keys:read"] });
    expect((await m.write("POST", "/dashboard/api-keys", { name: "k", type: "secret" })).status).toBe(403);
  });

  test("members:write alone cannot grant roles its holder lacks, nor admin; only an owner grants owner", async () => {
    const { teamId } = await newTeamWithOwner(t);
    const manager = await newOperator(t, teamId, ["members:read", "members:write", "catalog:read"]);
    const admin = await newOperator(t, teamId, ["admin"]);
    const target = await newOperator(t, teamId, ["catalog:read"]);
    const m = await browser(t, manager.email);
    const a = await browser(t, admin.email);
    const escalate = await m.write("PATCH", `/dashboard/members/${manager.memberId}`, { roles: ["admin"] });
    expect(escalate.status).toBe(403);
    expect(escalate.body.code).toBe("missing_permission");
    expect((await m.write("POST", "/dashboard/members", { email: "x@test.dev", roles: ["billing:write"] })).status).toBe(403);
    expect((await m.write("PATCH", `/dashboard/members/${target.memberId}`, { roles: ["catalog:read", "members:read"] })).status).toBe(200);
    const ownerByAdmin = await a.write("PATCH", `/dashboard/members/${target.memberId}`, { roles: ["owner"] });
    expect(ownerByAdmin.status).toBe(403);
    expect(ownerByAdmin.body.error).toContain("Only an owner");
    expect((await a.write("PATCH", `/dashboard/members/${target.memberId}`, { roles: ["admin"] })).status).toBe(200);
  });

  test("400 for an unknown role or none", async () => {
    const { owner } = await newTeamWithOwner(t);
    const o = await browser(t, owner.email);
    const unknown = await o.write("PATCH", `/dashboard/members/${owner.memberId}`, { roles: ["owner", "superuser"] });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.details)).toEqual(["roles"]);
    expect((await o.write("PATCH", `/dashboard/members/${owner.memberId}`, { roles: [] })).status).toBe(400);
  });
});

describe("the last owner", () => {
  test("409 last_owner: the only owner can neither be demoted nor removed; with a second owner both work", async () => {
    const { teamId, owner } = await newTeamWithOwner(t);
    const o = await browser(t, owner.email);
    const demote = await o.write("PATCH", `/dashboard/members/${owner.memberId}`, { roles: ["admin"] });
    expect(demote.status).toBe(409);
    expect(demote.body).toEqual({ error: expect.any(String), code: "last_owner" });
    expect((await o.write("DELETE", `/dashboard/members/${owner.memberId}`)).body.code).toBe("last_owner");
    const second = await newOperator(t, teamId, ["catalog:read"]);
    expect((await o.write("PATCH", `/dashboard/members/${second.memberId}`, { roles: ["owner"] })).status).toBe(200);
    expect((await o.write("PATCH", `/dashboard/members/${owner.memberId}`, { roles: ["admin"] })).status).toBe(200);
    const s = await browser(t, second.email);
    // The first owner is an admin now: it may not remove an owner.
    expect((await o.write("DELETE", `/dashboard/members/${second.memberId}`)).status).toBe(403);
    expect((await s.write("DELETE", `/dashboard/members/${second.memberId}`)).status).toBe(409);
  });

  test("session create (automation) cannot take owner from the last owner either, and changes nothing then", async () => {
    const { teamId, owner } = await newTeamWithOwner(t);
    const demote = createDashboardSession(
      t.db.sql,
      { teamId, environment: "development", userEmail: owner.email, roles: ["catalog:read"] },
      t.clock.now(),
    );
    await expect(demote).rejects.toMatchObject({ code: "last_owner" });
    expect((await listMembers(t.db.sql, teamId)).find((m) => m.id === owner.memberId)?.roles).toEqual(["owner"]);
    // The same roles again is no change (no audit entry); with a second owner the roles do change, audited.
    await createDashboardSession(t.db.sql, { teamId, environment: "development", userEmail: owner.email, roles: ["owner"] }, t.clock.now());
    const second = await newOperator(t, teamId, ["owner"]);
    await createDashboardSession(t.db.sql, { teamId, environment: "development", userEmail: second.email, roles: ["admin"] }, t.clock.now());
    expect((await listMembers(t.db.sql, teamId)).find((m) => m.id === second.memberId)?.roles).toEqual(["admin"]);
    const changes = await t.db
      .sql`select resource_id from audit_log where team_id = ${teamId} and environment = 'development' and action = 'member.roles_change'`;
    expect(changes.map((r) => r.resource_id)).toEqual([second.memberId]);
  });
});

describe("removal", () => {
  test("DELETE /dashboard/members/{id} revokes every session of the member at once, and the member leaves the list", async () => {
    const { teamId, owner } = await newTeamWithOwner(t);
    const member = await newOperator(t, teamId, ["catalog:read"]);
    const first = await browser(t, member.email);
    const second = await browser(t, member.email);
    const o = await browser(t, owner.email);
    expect((await first.read("/dashboard/session")).status).toBe(200);
    const removed = await o.write("DELETE", `/dashboard/members/${member.memberId}`);
    expect(removed.status).toBe(200);
    for (const b of [first, second]) {
      const res = await b.read("/dashboard/session");
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("revoked_credentials");
    }
    const list = await o.read("/dashboard/members");
    expect(list.body.data.map((m: { id: string }) => m.id)).toEqual([owner.memberId]);
    // A removed member cannot sign in to the team (same answer as a wrong password).
    expect((await signIn(t, member.email)).status).toBe(401);
    expect((await o.write("DELETE", `/dashboard/members/${member.memberId}`)).status).toBe(404);
  });
});

describe("invitations", () => {
  test("invite -> accept (new account) -> signed in with the invited roles -> sign in with the password; the token works once", async () => {
    const { teamId, owner } = await newTeamWithOwner(t);
    const o = await browser(t, owner.email);
    const invited = await o.write("POST", "/dashboard/members", { email: "Grace@Test.dev", roles: ["billing:read"] });
    expect(invited.status).toBe(201);
    const token = invited.body.data.token as string;
    secrets.push(token);
    expect(token).toStartWith("dinv_");
    expect(invited.body.data.invitation).toMatchObject({ email: "Grace@Test.dev", roles: ["billing:read"], invitedBy: owner.id });
    expect((await o.read("/dashboard/invitations")).body.data.map((i: { email: string }) => i.email)).toEqual(["Grace@Test.dev"]);
    const short = await t.call("POST", "/dashboard/invitations/accept", { body: { token, name: "Grace", password: "short" } });
    expect(short.status).toBe(400);
    const accepted = await t.call("POST", "/dashboard/invitations/accept", { body: { token, name: "Grace", password: PASSWORD } });
    expect(accepted.status).toBe(200);
    expect(cookieOf(accepted)).toStartWith("dsess_");
    expect(accepted.body.data).toMatchObject({ team: { id: teamId }, roles: ["billing:read"], operator: { email: "Grace@Test.dev", name: "Grace" } });
    const again = await t.call("POST", "/dashboard/invitations/accept", { body: { token, name: "Grace", password: PASSWORD } });
    expect(again.status).toBe(410);
    expect(again.body.code).toBe("invitation_invalid");
    const signedIn = await signIn(t, "grace@test.dev");
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.roles).toEqual(["billing:read"]);
    // The new account's hash has the configured cost (PASSWORD_HASH_MEMORY_KIB, lowered for the tests).
    const [grace] = await t.db.sql`select password_hash from operators where lower(email) = 'grace@test.dev'`;
    expect(grace!.password_hash).toStartWith(`$argon2id$v=19$m=${t.config.passwordHashMemoryKib},`);
    expect((await o.read("/dashboard/members")).body.data).toHaveLength(2);
    expect((await o.read("/dashboard/invitations")).body.data).toEqual([]);
  });

  test("an existing account accepts with its own password; a wrong one is 401 and leaves the invitation usable; expired after 7 days", async () => {
    const { teamId, owner } = await newTeamWithOwner(t);
    const o = await browser(t, owner.email);
    await createOperator(t.db.sql, { email: "ada@test.dev", name: "Ada", password: PASSWORD }, t.config.passwordHashMemoryKib);
    const { token } = (await o.write("POST", "/dashboard/members", { email: "ada@test.dev", roles: ["catalog:read"] })).body.data;
    const wrong = await t.call("POST", "/dashboard/invitations/accept", {
      body: { token, name: "Ada", password: "another password!" },
      headers: { "x-forwarded-for": "203.0.113.9" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("sign_in_failed");
    const ok = await t.call("POST", "/dashboard/invitations/accept", { body: { token, name: "Ignored", password: PASSWORD } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.operator.name).toBe("Ada");
    expect(ok.body.data.team.id).toBe(teamId);
    const late = (await o.write("POST", "/dashboard/members", { email: "late@test.dev", roles: ["catalog:read"] })).body.data.token;
    t.clock.advance(7 * 24 * 3_600_000 + 1);
    expect((await t.call("POST", "/dashboard/invitations/accept", { body: { token: late, name: "Late", password: PASSWORD } })).status).toBe(410);
  });

  test("409 when the email is already a member", async () => {
    const { owner } = await newTeamWithOwner(t);
    const o = await browser(t, owner.email);
    expect((await o.write("POST", "/dashboard/members", { email: owner.email.toUpperCase(), roles: ["catalog:read"] })).status).toBe(409);
  });
});

test("member, role, invitation and sign-in changes are audited with the operator as actor, in both environments for team changes", async () => {
  const { teamId, owner } = await newTeamWithOwner(t);
  const member = await newOperator(t, teamId, ["catalog:read"]);
  const o = await browser(t, owner.email);
  await o.write("PATCH", `/dashboard/members/${member.memberId}`, { roles: ["catalog:read", "audit:read"] });
  await o.write("POST", "/dashboard/members", { email: "audited@test.dev", roles: ["catalog:read"] });
  await o.write("DELETE", `/dashboard/members/${member.memberId}`);
  const rows = await t.db.sql<{ environment: string; actor_kind: string; actor_id: string; action: string }[]>`
    select environment, actor_kind, actor_id, action from audit_log
    where team_id = ${teamId} and actor_id = ${owner.id} order by seq`;
  const byEnv = (env: string) => rows.filter((r) => r.environment === env).map((r) => r.action);
  expect(byEnv("development")).toEqual(["dashboard_session.sign_in", "member.roles_change", "invitation.create", "member.remove"]);
  expect(byEnv("production")).toEqual(["member.roles_change", "invitation.create", "member.remove"]);
  expect(rows.every((r) => r.actor_kind === "dashboard")).toBe(true);
  const listed = await o.read(`/audit-log?actorId=${owner.id}`);
  expect(listed.body.data.map((e: { action: string }) => e.action)).toContain("member.remove");
});

test("no invitation token or password appears in the logs", () => {
  t.logger.flush();
  const text = t.logs.join("\n");
  for (const secret of [...secrets, PASSWORD]) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/dinv_|dsess_[0-9A-Za-z]{48}/); // (dsess_ + 24 characters is a session id, not a token)
});
