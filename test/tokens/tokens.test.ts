/** POST /api-keys/tokens and POST /access-tokens: what they mint, upsert and record. */
import { describe, expect, test } from "bun:test";
import { createTestApp, TEST_SECRETS } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";

const t = await createTestApp();
const team = await createTeamFixture(t);

const decode = (part: string) =>
  JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(part.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0))));

describe("POST /api-keys/tokens", () => {
  test("201: a be_tok_ token for one company, expiring after its TTL", async () => {
    const res = await t.call("POST", "/api-keys/tokens", {
      token: team.keys.secret,
      body: { company: { id: "embed-co", name: "Embed Co", traits: { tier: "gold" } }, ttlSeconds: 60 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ tokenType: "Bearer", expiresIn: 60, userId: null, companyId: expect.stringMatching(/^comp_/) });
    expect(res.body.token).toStartWith("be_tok_");
    expect(new Date(res.body.expiresAt).getTime()).toBe(Math.floor(t.clock.now() / 1000) * 1000 + 60_000);
  });

  test("defaults to 900 seconds", async () => {
    const res = await t.call("POST", "/api-keys/tokens", { token: team.keys.restricted, body: { company: { id: "embed-co" } } });
    expect(res.body.expiresIn).toBe(900);
  });

  test("matches the company on any key and merges traits, never duplicating it", async () => {
    const a = await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "merge-co", traits: { a: 1 } } } });
    const b = await t.call("POST", "/api-keys/tokens", {
      token: team.keys.secret,
      body: { company: { id: "merge-co", email: "Billing@Merge.test", traits: { b: 2 } } },
    });
    const c = await t.call("POST", "/api-keys/tokens", {
      token: team.keys.secret,
      body: { company: { email: "billing@merge.test", wallet: "0xabc", traits: { a: 3 } } },
    });
    expect(new Set([a.body.companyId, b.body.companyId, c.body.companyId]).size).toBe(1);
    const [row] = await t.db.sql`select traits, email, wallet_address, external_id from companies where id = ${a.body.companyId}`;
    expect(row).toEqual({ traits: { a: 3, b: 2 }, email: "Billing@Merge.test", wallet_address: "0xabc", external_id: "merge-co" });
  });

  test("concurrent first calls for the same new company create it once", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "race-co" } } })),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(new Set(results.map((r) => r.body.companyId)).size).toBe(1);
  });

  test("each mint is in the audit log with who, what and the request id", async () => {
    const res = await t.call("POST", "/api-keys/tokens", {
      token: team.keys.secret,
      body: { company: { id: "audited-co" } },
      headers: { "x-request-id": "audit-trail-00001" },
    });
    const [row] = await t.db
      .sql`select actor_kind, actor_id, action, resource_type, resource_id, request_id from audit_log where request_id = 'audit-trail-00001'`;
    expect(row).toEqual({
      actor_kind: "secret",
      actor_id: team.keyIds.secret,
      action: "embed_token.create",
      resource_type: "company",
      resource_id: res.body.companyId,
      request_id: "audit-trail-00001",
    });
  });
});

describe("POST /access-tokens", () => {
  test("201: upserts company and user, links them, returns an HS256 JWT scoped to both", async () => {
    const res = await t.call("POST", "/access-tokens", {
      token: team.keys.legacy,
      body: { company: { id: "jwt-co", name: "JWT Co" }, user: { idp_user_id: "auth0|123", email: "ada@jwt.test", name: "Ada" }, ttlSeconds: 120 },
    });
    expect(res.status).toBe(201);
    const [header, payload] = res.body.token.split(".");
    // kid: the first 8 bytes of the signing secret's SHA-256 (the key id docs/operations/configuration.md#rotating-the-token-secret documents)
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(TEST_SECRETS.TOKEN_SIGNING_SECRET)));
    expect(decode(header)).toEqual({ alg: "HS256", typ: "JWT", kid: Buffer.from(digest.slice(0, 8)).toString("base64url") });
    const claims = decode(payload);
    expect(claims).toEqual({
      iss: "billing-entitlements",
      aud: "embed",
      sub: res.body.userId,
      jti: expect.stringMatching(/^tok_/),
      tid: team.teamId,
      env: "development",
      cid: res.body.companyId,
      kid: team.keyIds.legacy,
      iat: expect.any(Number),
      exp: expect.any(Number),
    });
    expect(claims.exp - claims.iat).toBe(120);
    const users = await t.call("GET", `/users?companyId=${res.body.companyId}`, { token: team.keys.secret });
    expect(users.body.data).toHaveLength(1);
    expect(users.body.data[0]).toMatchObject({ id: res.body.userId, idpUserId: "auth0|123", email: "ada@jwt.test", name: "Ada" });
  });

  test("400 when the user has no identifying key", async () => {
    const res = await t.call("POST", "/access-tokens", { token: team.keys.secret, body: { company: { id: "jwt-co" }, user: { name: "Nobody" } } });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual({ "body.user": "At least one of id, idp_user_id, wallet, email is required" });
  });

  test("400 for a company or user key of only whitespace; nothing is created", async () => {
    const blank = "Expected a string of 1 to 200 characters, not all whitespace";
    const company = await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "  " } } });
    expect(company.status).toBe(400);
    expect(company.body.details).toEqual({ "body.company.id": blank });
    const user = await t.call("POST", "/access-tokens", {
      token: team.keys.secret,
      body: { company: { id: "blank-user-co" }, user: { id: "\u00a0" } },
    });
    expect(user.status).toBe(400);
    expect(user.body.details).toEqual({ "body.user.id": blank });
    const [created] = await t.db
      .sql`select count(*)::int as n from companies where team_id = ${team.teamId} and (trim(external_id) = '' or external_id = 'blank-user-co')`;
    expect(created!.n).toBe(0);
  });
});

describe("identity keys held by two different companies", () => {
  test("a call naming company A by id and company B's email updates A and does not fail", async () => {
    const a = await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "owner-a" } } });
    const b = await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "owner-b", email: "shared@owner.test" } } });
    const both = await t.call("POST", "/api-keys/tokens", {
      token: team.keys.secret,
      body: { company: { id: "owner-a", email: "shared@owner.test", traits: { x: 1 } } },
    });
    expect(both.status).toBe(201);
    expect(both.body.companyId).toBe(a.body.companyId);
    const rows = await t.db
      .sql`select id, email, traits from companies where id in ${t.db.sql([a.body.companyId, b.body.companyId])} order by external_id`;
    expect([...rows]).toEqual([
      { id: a.body.companyId, email: null, traits: { x: 1 } },
      { id: b.body.companyId, email: "shared@owner.test", traits: {} },
    ]);
  });
});
