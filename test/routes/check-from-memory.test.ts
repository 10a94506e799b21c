/**
 * GET /check and GET /flags/check answered from memory in front of Elysia (src/modules/entitlements/
 * from-memory.ts): a warm, plain request never reaches the route and gets exactly the route's answer;
 * everything else reaches the route untouched; both paths share one rate-limit window and log alike.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture, newKey } from "../helpers/fixtures";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";
import { withMemoryAnswers } from "../../src/modules/entitlements/from-memory";

const t = await createTestApp();
const team = await createTeamFixture(t);
const catalog = await createCatalogFixture(t, team.teamId);
const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "mem-co", catalog.planId, 7n);

/** The served handler, counting what reaches the Elysia routes. */
function served() {
  const reached: string[] = [];
  const handle = withMemoryAnswers(t.deps, (request) => {
    reached.push(request.url);
    return t.app.handle(request);
  });
  return { handle, reached };
}

const get = (path: string, token: string | null, headers: Record<string, string> = {}) =>
  new Request(`http://localhost/api/v1${path}`, { headers: token ? { authorization: `Bearer ${token}`, ...headers } : headers });

/** Status, body text and content type: everything but the request id, which each answer makes anew. */
async function shape(response: Response) {
  return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
}

async function warm(path: string, token: string) {
  expect((await t.call("GET", path, { token })).status).toBe(200);
}

describe("a warm, plain request is answered from memory", () => {
  test.each([
    ["/check?company=mem-co&feature=api-calls"],
    ["/check?company=mem-co&feature=ai-tokens&quantity=3"],
    [`/check?feature=sso&company=${companyId}`],
    ["/check?company=no-such-company&feature=sso"],
    ["/flags/check?company=mem-co&flag=beta"],
  ])("GET %s: 200, exactly what the route answers", async (path) => {
    await warm(path, team.keys.secret);
    const { handle, reached } = served();
    const fromMemory = await handle(get(path, team.keys.secret, { "x-request-id": "req-from-the-client-1" }));
    expect(reached).toEqual([]);
    expect(fromMemory.headers.get("x-request-id")).toBe("req-from-the-client-1");
    const fromRoute = await t.app.handle(get(path, team.keys.secret));
    expect(await shape(fromMemory)).toEqual(await shape(fromRoute));
    expect(fromMemory.status).toBe(200);
  });

  test("a new request id when the client sends none (or a malformed one)", async () => {
    const path = "/check?company=mem-co&feature=sso";
    await warm(path, team.keys.secret);
    const { handle, reached } = served();
    const a = await handle(get(path, team.keys.secret));
    const b = await handle(get(path, team.keys.secret, { "x-request-id": "bad id!" }));
    expect(reached).toEqual([]);
    expect(a.headers.get("x-request-id")).toMatch(/^req_/);
    expect(b.headers.get("x-request-id")).toMatch(/^req_/);
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });

  test("one request log line, as the route writes it", async () => {
    const path = "/check?company=mem-co&feature=sso";
    await warm(path, team.keys.secret);
    const { handle } = served();
    t.logs.length = 0;
    await handle(get(path, team.keys.secret, { "x-request-id": "req-log-line-check" }));
    t.logger.flush();
    const line = t.logs.map((l) => JSON.parse(l)).find((l) => l.requestId === "req-log-line-check");
    expect(line).toMatchObject({ msg: "request", method: "GET", path: "/api/v1/check", status: 200, credential: { kind: "secret", teamId: team.teamId } });
    expect(JSON.stringify(line)).not.toContain(team.keys.secret);
  });
});

describe("everything else reaches the route untouched", () => {
  const sk = team.keys.secret;
  test.each([
    ["an escaped value", "/check?company=mem%2Dco&feature=api-calls", sk, 200],
    ["a plus in a value", "/check?company=mem+co&feature=api-calls", sk, 200],
    ["a repeated parameter", "/check?company=mem-co&company=mem-co&feature=sso", sk, 200],
    ["a bad quantity", "/check?company=mem-co&feature=sso&quantity=0", sk, 400],
    ["no feature", "/check?company=mem-co", sk, 400],
    ["an empty value", "/check?company=&feature=sso", sk, 400],
    ["an unknown feature", "/check?company=mem-co&feature=nope", sk, 404],
    ["no company with a key", "/flags/check?flag=sso", sk, 400],
    ["no credentials", "/check?company=mem-co&feature=sso", null, 401],
    ["an unknown key", "/check?company=mem-co&feature=sso", "sk_test_0000000000000000000000000000", 401],
  ])("%s: %s", async (_, path, token, status) => {
    await warm("/check?company=mem-co&feature=sso", sk);
    const { handle, reached } = served();
    const response = await handle(get(path, token));
    expect(reached).toHaveLength(1);
    expect(response.status).toBe(status);
    expect(await shape(response)).toEqual(await shape(await t.app.handle(get(path, token))));
  });

  test("a key or company not yet in memory: the route loads it, and the next request is answered from memory", async () => {
    const { key } = await newKey(t.db.sql, team.teamId, "SECRET", "development", t.clock.now());
    const other = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "mem-cold", catalog.planId);
    t.deps.entitlements.companyChanged({ teamId: team.teamId, environment: "development" }, other); // evicted
    const path = "/check?company=mem-cold&feature=sso";
    const { handle, reached } = served();
    expect((await handle(get(path, key))).status).toBe(200);
    expect(reached).toHaveLength(1);
    expect((await handle(get(path, key))).status).toBe(200);
    expect(reached).toHaveLength(1);
  });

  test("a key without the permission: the route answers 403", async () => {
    const path = "/check?company=mem-co&feature=sso";
    await warm(path, team.keys.secret);
    await t.app.handle(get(path, team.keys.secretScoped)); // the scoped key is now in memory
    const { handle, reached } = served();
    const response = await handle(get(path, team.keys.secretScoped));
    expect(reached).toHaveLength(1);
    expect(response.status).toBe(403);
  });

  test("a key over its rate limit loads nothing: a company not in memory stays unread", async () => {
    const { key } = await newKey(t.db.sql, team.teamId, "SECRET", "development", t.clock.now());
    const { handle } = served();
    for (let i = 0; i < 500; i++) expect((await handle(get("/check?company=mem-co&feature=sso", key))).status).toBe(200);
    const tenant = { teamId: team.teamId, environment: "development" as const };
    const refused = await handle(get("/check?company=never-looked-up&feature=sso", key));
    expect(refused.status).toBe(429);
    expect(t.deps.entitlements.knownCompanyId(tenant, "never-looked-up")).toBeUndefined();
  });

  test("HEAD, a body, and embed tokens go to the route", async () => {
    const path = "/check?company=mem-co&feature=sso";
    await warm(path, sk);
    const minted = await t.call("POST", "/api-keys/tokens", { token: sk, body: { company: { id: "mem-co" } } });
    expect(minted.status).toBe(201);
    const { handle, reached } = served();
    await handle(new Request(`http://localhost/api/v1${path}`, { method: "HEAD", headers: { authorization: `Bearer ${sk}` } }));
    await handle(new Request(`http://localhost/api/v1${path}`, { method: "GET", headers: { authorization: `Bearer ${sk}`, "content-length": "2" } }));
    const embed = await handle(get("/check?feature=sso", minted.body.token));
    expect(embed.status).toBe(200);
    expect(reached).toHaveLength(3);
  });
});

describe("one rate-limit window for both paths", () => {
  test("500 per key per 60 s whichever path answers; the 501st is 429 from memory and from the route", async () => {
    const { key } = await newKey(t.db.sql, team.teamId, "SECRET", "development", t.clock.now());
    const fromMemory = "/check?company=mem-co&feature=sso";
    const viaRoute = "/check?company=mem%2Dco&feature=sso"; // escaped: always the route
    const { handle, reached } = served();
    const t0 = t.clock.now();
    const statuses: number[] = [];
    for (let i = 0; i < 500; i++) statuses.push((await handle(get(i % 2 ? fromMemory : viaRoute, key))).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(500);
    expect(reached).toHaveLength(250);
    const refused = await handle(get(fromMemory, key));
    expect(reached).toHaveLength(250);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "Rate limit exceeded" });
    expect(refused.headers.get("x-request-id")).toMatch(/^req_/);
    expect((await handle(get(viaRoute, key))).status).toBe(429);
    t.clock.set(t0 + 60_000);
    expect((await handle(get(fromMemory, key))).status).toBe(200);
  });
});
