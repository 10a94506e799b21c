/**
 * The spec's request-rate limit at the HTTP layer: 500 per credential per sliding 60 s on the five
 * endpoints it names, exact at the window's edges (driven by the test's clock), not on other routes,
 * with embed tokens on windows of their own, and off when RATE_LIMIT_ENABLED=false.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { createTeamFixture, newKey } from "../helpers/fixtures";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";

const t = await createTestApp();
const team = await createTeamFixture(t);
const catalog = await createCatalogFixture(t, team.teamId, "development", 1_000_000n);
await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "rl-co", catalog.planId);
const off = await createTestApp({ RATE_LIMIT_ENABLED: "false" });

async function burst(app: TestApp, n: number, method: string, path: string, options: { token: string; body?: unknown }) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await app.call(method, path, options)).status);
  return out;
}

const count = (xs: number[], status: number) => xs.filter((x) => x === status).length;

describe("GET /check is limited to 500 per key per sliding 60 s", () => {
  test("the 501st inside the window is 429 {error: 'Rate limit exceeded'}; capacity returns as requests age out", async () => {
    const { key } = await newKey(t.db.sql, team.teamId, "SECRET", "development", t.clock.now());
    const options = { token: key };
    const t0 = t.clock.now();
    expect(count(await burst(t, 250, "GET", "/check?company=rl-co&feature=sso", options), 200)).toBe(250);
    t.clock.set(t0 + 30_000);
    expect(count(await burst(t, 250, "GET", "/check?company=rl-co&feature=sso", options), 200)).toBe(250);
    const refused = await t.call("GET", "/check?company=rl-co&feature=sso", options);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: "Rate limit exceeded" });
    t.clock.set(t0 + 59_999); // the first 250 are still inside the window
    expect((await t.call("GET", "/check?company=rl-co&feature=sso", options)).status).toBe(429);
    t.clock.set(t0 + 60_000); // the first 250 have aged out: exactly 250 more fit
    expect(count(await burst(t, 251, "GET", "/check?company=rl-co&feature=sso", options), 200)).toBe(250);
    expect((await t.call("GET", "/check?company=rl-co&feature=sso", options)).status).toBe(429);
  });

  test("every limited response carries RateLimit-*; a refusal says when to retry (Retry-After), on both the memory and the route path", async () => {
    const { key } = await newKey(t.db.sql, team.teamId, "SECRET", "development", t.clock.now());
    const t0 = t.clock.now();
    const window = (res: { headers: Headers }) =>
      ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after"].map((h) => res.headers.get(h));
    expect(window(await t.call("GET", "/check?company=rl-co&feature=sso", { token: key }))).toEqual(["500", "499", "60", null]);
    t.clock.set(t0 + 20_500);
    expect(window(await t.call("POST", "/usage/consume", { token: key, body: { company: "rl-co", feature: "api-calls" } }))).toEqual([
      "500",
      "498",
      "40",
      null,
    ]);
    expect(count(await burst(t, 498, "GET", "/check?company=rl-co&feature=sso", { token: key }), 200)).toBe(498);
    t.clock.set(t0 + 30_000);
    for (const [method, path, body] of [
      ["GET", "/check?company=rl-co&feature=sso", undefined],
      ["POST", "/usage/consume", { company: "rl-co", feature: "api-calls" }],
    ] as const) {
      const refused = await t.call(method, path, { token: key, body });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: "Rate limit exceeded" });
      expect(window(refused)).toEqual(["500", "0", "30", "30"]); // the first request leaves the window at t0+60_000
    }
    t.clock.set(t0 + 59_999);
    expect(window(await t.call("GET", "/check?company=rl-co&feature=sso", { token: key }))).toEqual(["500", "0", "1", "1"]);
    t.clock.set(t0 + 60_000);
    expect((await t.call("GET", "/check?company=rl-co&feature=sso", { token: key })).status).toBe(200);
    // Unlimited routes say nothing of a window.
    expect((await t.call("GET", "/companies", { token: key })).headers.get("ratelimit-limit")).toBeNull();
  });

  test("the five endpoints share the key's window; other routes do not spend it", async () => {
    const { key } = await newKey(t.db.sql, team.teamId, "SECRET", "development", t.clock.now());
    expect(count(await burst(t, 10, "GET", "/companies", { token: key }), 200)).toBe(10);
    const mixed = [
      ...(await burst(t, 100, "GET", "/check?company=rl-co&feature=sso", { token: key })),
      ...(await burst(t, 100, "GET", "/flags/check?company=rl-co&flag=sso", { token: key })),
      ...(await burst(t, 100, "GET", "/entitlements?company=rl-co", { token: key })),
      ...(await burst(t, 100, "POST", "/usage/consume", { token: key, body: { company: "rl-co", feature: "api-calls" } })),
      ...(await burst(t, 100, "POST", "/api-keys/tokens", { token: key, body: { company: { id: "rl-co" } } })),
    ];
    expect(mixed.every((s) => s === 200 || s === 201)).toBe(true);
    expect((await t.call("GET", "/flags/check?company=rl-co&flag=sso", { token: key })).status).toBe(429);
    expect((await t.call("GET", "/companies", { token: key })).status).toBe(200);
    expect(
      (await t.call("POST", "/events", { token: team.keys.legacy, body: { event_type: "track", name: "x", company: { id: "rl-co" } } })).status,
    ).toBe(200);
  });

  test("the limit counts requests, valid or not: past it, even an invalid one is 429; a credential without the permission spends nothing", async () => {
    const { key } = await newKey(t.db.sql, team.teamId, "SECRET", "development", t.clock.now());
    const invalid = await burst(t, 100, "GET", "/check?company=rl-co", { token: key }); // no feature: 400
    expect(count(invalid, 400)).toBe(100);
    expect(count(await burst(t, 400, "GET", "/check?company=rl-co&feature=sso", { token: key }), 200)).toBe(400);
    for (const [method, path, body] of [
      ["GET", "/check?company=rl-co", undefined],
      ["POST", "/api-keys/tokens", {}],
      ["POST", "/usage/consume", { quantity: -1 }],
    ] as const) {
      const res = await t.call(method, path, { token: key, body });
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ error: "Rate limit exceeded" });
    }
    // A publishable key may not call /usage/consume: 403 comes before, and spends nothing.
    const { key: publishable } = await newKey(t.db.sql, team.teamId, "PUBLISHABLE", "development", t.clock.now());
    expect(count(await burst(t, 5, "POST", "/usage/consume", { token: publishable, body: { company: "rl-co", feature: "api-calls" } }), 403)).toBe(5);
    expect(count(await burst(t, 500, "GET", "/check?company=rl-co&feature=sso", { token: publishable }), 200)).toBe(500);
  });

  test("embed-token reads do not spend the server key's quota", async () => {
    const { key } = await newKey(t.db.sql, team.teamId, "SECRET", "development", t.clock.now());
    const token = (await t.call("POST", "/api-keys/tokens", { token: key, body: { company: { id: "rl-co" } } })).body.token;
    expect(count(await burst(t, 500, "GET", "/check?feature=sso", { token }), 200)).toBe(500);
    expect((await t.call("GET", "/check?feature=sso", { token })).status).toBe(429);
    // The key minted one token (1 request) and still has 499.
    expect(count(await burst(t, 499, "GET", "/check?company=rl-co&feature=sso", { token: key }), 200)).toBe(499);
    expect((await t.call("GET", "/check?company=rl-co&feature=sso", { token: key })).status).toBe(429);
  });
});

describe("RATE_LIMIT_ENABLED=false", () => {
  test("no request is refused for rate", async () => {
    const offTeam = await createTeamFixture(off);
    const statuses = await burst(off, 520, "GET", "/check?company=x&feature=none", { token: offTeam.keys.secret });
    expect(count(statuses, 429)).toBe(0);
    expect(count(statuses, 404)).toBe(520);
  });
});
