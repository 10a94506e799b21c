/**
 * Bad input on the dashboard routes (and the spec routes they touch) as a hostile or careless client sends
 * it: each is a 4xx in one of the spec's three shapes, changes nothing, and another team's or the other
 * environment's ids are a 404. The first tests are regressions of what a probe found (a body that is not a
 * JSON object taken as `{}`, so a secret rotation ran on it; a deeply nested body that took seconds and then
 * a 500; blank names); the last sweeps the rest so that none of it turns into a 5xx later.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp, type CallOptions } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createDashboardSession } from "../../src/modules/teams/automation-session";

const t = await createTestApp();
const team = await createTeamFixture(t);
const other = await createTeamFixture(t, "Other team");
const admin = { token: team.dashboardAdmin };
const otherAdmin = { token: other.dashboardAdmin };
const production = {
  token: (
    await createDashboardSession(
      t.db.sql,
      { teamId: team.teamId, environment: "production", userEmail: "admin@test.dev", roles: ["admin"] },
      t.clock.now(),
    )
  ).session,
};

const json = (rawBody: string, o: CallOptions = admin): CallOptions => ({ ...o, rawBody, headers: { "content-type": "application/json" } });

/** The spec's three error shapes, and nothing else. */
function expectErrorShape(body: unknown) {
  expect(body).toBeObject();
  const keys = Object.keys(body as object).sort();
  expect([["error"], ["code", "error"], ["details", "error"]]).toContainEqual(keys);
  expect(typeof (body as { error: unknown }).error).toBe("string");
}

const plan = (await t.call("POST", "/dashboard/plans", { ...admin, body: { name: "Pro" } })).body.data;
const coupon = (await t.call("POST", "/dashboard/coupons", { ...admin, body: { code: "BASE", percentOff: "10", duration: "once" } })).body.data;
const feature = (await t.call("POST", "/dashboard/features", { ...admin, body: { name: "Calls", featureKey: "calls", featureType: "event" } })).body
  .data;
const endpoint = (await t.call("POST", "/dashboard/webhooks/endpoints", { ...admin, body: { url: "https://example.com/hook" } })).body.data;
await t.call("POST", "/access-tokens", { token: team.keys.secret, body: { company: { id: "acme" }, user: { id: "ada" } } });

describe("a body that is not a JSON object", () => {
  const routes: [string, string][] = [
    ["POST", "/dashboard/plans"],
    ["PATCH", `/dashboard/plans/${plan.id}`],
    ["PUT", `/dashboard/plans/${plan.id}/prices/monthly`],
    ["PUT", `/dashboard/plans/${plan.id}/entitlements/${feature.id}`],
    ["POST", "/dashboard/coupons"],
    ["PATCH", `/dashboard/coupons/${coupon.id}`],
    ["PATCH", `/dashboard/features/${feature.id}`],
    ["PUT", `/features/${feature.id}`],
    ["PATCH", "/companies/acme"],
    ["POST", "/dashboard/webhooks/endpoints"],
    ["PATCH", `/dashboard/webhooks/endpoints/${endpoint.id}`],
    ["POST", `/dashboard/webhooks/endpoints/${endpoint.id}/rotate-secret`],
    ["POST", "/dashboard/members"],
    ["POST", "/dashboard/api-keys"],
    ["POST", "/dashboard/sign-in"],
  ];

  test("null, an array, a string, a number or a boolean is a 400 on every route, never taken as {}", async () => {
    const before = await t.db
      .sql`select (select updated_at from plans where id = ${plan.id}) as plan, (select secret_sealed from webhook_endpoints where id = ${endpoint.id}) as secret`;
    for (const [method, path] of routes) {
      for (const raw of ["null", "[]", "[{}]", '"x"', "5", "true"]) {
        const res = await t.call(method, path, json(raw));
        expect([method, path, raw, res.status, res.body]).toEqual([
          method,
          path,
          raw,
          400,
          { error: "Validation failed", details: { body: "Expected a JSON object" } },
        ]);
      }
    }
    // The rotation (whose body is optional) did not run, and the partial updates wrote nothing.
    const after = await t.db
      .sql`select (select updated_at from plans where id = ${plan.id}) as plan, (select secret_sealed from webhook_endpoints where id = ${endpoint.id}) as secret`;
    expect(after).toEqual(before);
    const revealed = await t.call("GET", `/dashboard/webhooks/endpoints/${endpoint.id}/secret`, admin);
    expect(revealed.body).toEqual({ data: { secret: endpoint.secret, previousSecret: null, previousSecretExpiresAt: null } });
  });

  test("no body, or {}, still rotates with the default overlap", async () => {
    const made = (await t.call("POST", "/dashboard/webhooks/endpoints", { ...admin, body: { url: "https://example.com/rotating" } })).body.data;
    for (const o of [admin, json("{}")]) {
      const res = await t.call("POST", `/dashboard/webhooks/endpoints/${made.id}/rotate-secret`, o);
      expect(res.status).toBe(200);
      expect(res.body.data.secret).not.toBe(made.secret);
    }
  });
});

describe("a body nested too deep", () => {
  test.each([
    ["PATCH", "/companies/acme", (deep: string) => `{"traits":${deep}}`],
    ["PATCH", "/companies/acme", (deep: string) => `{"traits":{"a":${deep}}}`],
    ["POST", "/dashboard/plans", (deep: string) => `{"name":${deep}}`],
    ["POST", "/dashboard/webhooks/endpoints", (deep: string) => `{"url":"https://example.com/x","eventTypes":${deep}}`],
  ])("%s %s: a 400 at once at any depth (a schema error on 10,000 levels took seconds, 100,000 a 500)", async (method, path, body) => {
    for (const depth of [40, 10_000, 100_000]) {
      const started = performance.now();
      const res = await t.call(method, path, json(body("[".repeat(depth) + "]".repeat(depth))));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "Validation failed", details: { body: "Nested more than 32 levels deep" } });
      expect(performance.now() - started).toBeLessThan(1000);
    }
    // Brackets inside strings are text, not nesting.
    const text = await t.call("PATCH", "/companies/acme", { ...admin, body: { name: "[".repeat(100) } });
    expect(text.status).toBe(200);
  });
});

describe("blank names", () => {
  test("an API key, a coupon name or a plan tier of only whitespace is refused like an empty one, and nothing is written", async () => {
    const cases: [string, string, unknown, string][] = [
      ["POST", "/dashboard/api-keys", { name: "   ", type: "secret" }, "body.name"],
      ["POST", "/dashboard/coupons", { code: "BLANK", name: " \t ", percentOff: "5", duration: "once" }, "body.name"],
      ["PATCH", `/dashboard/coupons/${coupon.id}`, { name: "  " }, "body.name"],
      ["POST", "/dashboard/plans", { name: "Blank tier", tier: "  " }, "body.tier"],
      ["PATCH", `/dashboard/plans/${plan.id}`, { tier: "\n" }, "body.tier"],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await t.call(method, path, { ...admin, body });
      expect([path, res.status, Object.keys(res.body.details ?? {})]).toEqual([path, 400, [field]]);
      expect(res.body.details[field]).toMatch(/not all whitespace/);
    }
    const [written] = await t.db.sql`
      select (select count(*)::int from api_keys where team_id = ${team.teamId} and trim(name) = '')
           + (select count(*)::int from coupons where team_id = ${team.teamId} and (code = 'BLANK' or trim(name) = ''))
           + (select count(*)::int from plans where team_id = ${team.teamId} and (name = 'Blank tier' or trim(tier) = '')) as n`;
    expect(written!.n).toBe(0);
  });
});

test("a trait entitlement missing its value names the value, not the key it was given", async () => {
  const traitFeature = (await t.call("POST", "/dashboard/features", { ...admin, body: { name: "Seats", featureKey: "seats", featureType: "trait" } }))
    .body.data;
  const res = await t.call("PUT", `/dashboard/plans/${plan.id}/entitlements/${traitFeature.id}`, {
    ...admin,
    body: { kind: "trait", traitKey: "seats", traitOperator: "gte" },
  });
  expect(res.status).toBe(400);
  expect(res.body.details).toEqual({ traitValue: "required" });
});

describe("the rest: every one a 4xx in the spec's shapes, never a 5xx", () => {
  test("bad values on the catalog, member, key and webhook routes", async () => {
    const price = `/dashboard/plans/${plan.id}/prices/monthly`;
    const cases: [string, string, unknown][] = [
      ...["1e3", "0.1234567", "-0", "NaN", "Infinity", "-1", "0", "", " ", "0x10", "+1", ".5", "99999999999999999999999"].map(
        (amount): [string, string, unknown] => ["PUT", price, { amount, currency: "USDC" }],
      ),
      ...[1000, 1.5, null].map((amount): [string, string, unknown] => ["PUT", price, { amount, currency: "USDC" }]),
      ["PUT", `/dashboard/plans/${plan.id}/prices/weekly`, { amount: "1", currency: "USDC" }],
      ["PUT", price, { amount: "1", currency: "DOGE" }],
      ...[-1, 366, 1.5, 1e300, null].map((trialDays): [string, string, unknown] => ["POST", "/dashboard/plans", { name: "T", trialDays }]),
      ["POST", "/dashboard/plans", { name: "x".repeat(10_000) }],
      ["POST", "/dashboard/plans", { name: "a\u0000b" }],
      ["POST", "/dashboard/plans", { name: "\ud800" }],
      ["POST", "/dashboard/plans", { name: "x", kind: "bundle" }],
      ["POST", "/dashboard/plans", { name: "x", onchainPlanIds: { "no-such-network": "7" } }],
      ...["0", "100.001", "-1", "NaN", "1e1", "0.001"].map((percentOff): [string, string, unknown] => [
        "POST",
        "/dashboard/coupons",
        { code: "P", percentOff, duration: "once" },
      ]),
      ["POST", "/dashboard/coupons", { code: "R", percentOff: "10", duration: "repeating" }],
      ["POST", "/dashboard/coupons", { code: "N", percentOff: 10, duration: "once" }],
      ["POST", "/dashboard/coupons", { code: "W", percentOff: "10", duration: "weekly" }],
      ["POST", "/dashboard/coupons", { code: "A", amountOff: "1e3", currency: "USDC", duration: "once" }],
      ["POST", "/dashboard/coupons", { code: "F", percentOff: "10", duration: "once", planIds: [other.teamId] }],
      ["PUT", `/dashboard/plans/${plan.id}/entitlements/${feature.id}`, { kind: "quota", limit: "9223372036854775808", period: "month" }],
      ["PUT", `/dashboard/plans/${plan.id}/entitlements/${feature.id}`, { kind: "quota", limit: -1, period: "month" }],
      ["PUT", `/dashboard/plans/${plan.id}/entitlements/${feature.id}`, { kind: "quota", limit: 1e300, period: "month" }],
      ["PUT", `/features/${feature.id}`, { featureType: "switch" }],
      ["POST", "/dashboard/members", { email: "not-an-email", roles: ["catalog:read"] }],
      ["POST", "/dashboard/members", { email: "x@example.com", roles: ["god"] }],
      ["POST", "/dashboard/members", { email: "x@example.com", roles: [] }],
      ["POST", "/dashboard/api-keys", { name: "k", type: "root" }],
      ["POST", "/dashboard/api-keys", { name: "k", type: "restricted", permissions: ["everything"] }],
      ["POST", "/dashboard/api-keys", { name: "k", type: "secret", expiresAt: "2000-01-01T00:00:00Z" }],
      ["POST", "/dashboard/session/environment", { environment: "staging" }],
      ...[
        "javascript:alert(1)",
        "ftp://example.com/x",
        "http://example.com/x",
        "https://0x7f.1/x",
        "https://2130706433/x",
        "https://[::ffff:7f00:1]/x",
        "https://user:pw@example.com/x",
        "https://169.254.169.254/latest",
        " ",
      ].map((url): [string, string, unknown] => ["POST", "/dashboard/webhooks/endpoints", { url }]),
      ["POST", "/dashboard/webhooks/endpoints", { url: "https://example.com/x", eventTypes: ["no.such.event"] }],
      ...[-1, 604_801, 1.5, null].map((overlapSeconds): [string, string, unknown] => [
        "POST",
        `/dashboard/webhooks/endpoints/${endpoint.id}/rotate-secret`,
        { overlapSeconds },
      ]),
    ];
    for (const [method, path, body] of cases) {
      const res = await t.call(method, path, { ...admin, body });
      expect([method, path, body, res.status >= 400 && res.status < 500]).toEqual([method, path, body, true]);
      expectErrorShape(res.body);
    }
    const unchanged = await t.call("GET", `/dashboard/webhooks/endpoints/${endpoint.id}/secret`, admin);
    expect(unchanged.body.data.secret).toBe(endpoint.secret);
  });

  test("another team's ids and the other environment's ids are a 404 naming nothing of theirs", async () => {
    const sent = await t.call("POST", `/dashboard/webhooks/endpoints/${endpoint.id}/test`, admin);
    expect(sent.status).toBe(202);
    const theirs: [string, string, unknown?][] = [
      ["GET", `/dashboard/plans/${plan.id}`],
      ["PATCH", `/dashboard/plans/${plan.id}`, { name: "Taken" }],
      ["PUT", `/dashboard/plans/${plan.id}/prices/monthly`, { amount: "1", currency: "USDC" }],
      ["DELETE", `/dashboard/plans/${plan.id}`],
      ["GET", `/dashboard/coupons/${coupon.id}`],
      ["PATCH", `/dashboard/coupons/${coupon.id}`, { name: "Taken" }],
      ["GET", `/dashboard/features/${feature.id}`],
      ["GET", "/dashboard/features/calls"],
      ["PUT", `/features/${feature.id}`, { name: "Taken" }],
      ["DELETE", `/features/${feature.id}`],
      ["PATCH", "/companies/acme", { name: "Taken" }],
      ["GET", `/dashboard/webhooks/endpoints/${endpoint.id}`],
      ["GET", `/dashboard/webhooks/endpoints/${endpoint.id}/secret`],
      ["POST", `/dashboard/webhooks/endpoints/${endpoint.id}/rotate-secret`, {}],
      ["GET", `/dashboard/webhooks/deliveries/${sent.body.data.deliveryId}`],
      ["POST", `/dashboard/webhooks/deliveries/${sent.body.data.deliveryId}/replay`],
      ["DELETE", `/dashboard/api-keys/${team.keyIds.secret}`],
    ];
    for (const caller of [otherAdmin, production]) {
      for (const [method, path, body] of theirs) {
        const res = await t.call(method, path, { ...caller, body });
        expect([method, path, res.status]).toEqual([method, path, 404]);
        expect(Object.keys(res.body)).toEqual(["error"]);
      }
    }
    // Their own endpoint cannot replay our message either.
    const theirEndpoint = (await t.call("POST", "/dashboard/webhooks/endpoints", { ...otherAdmin, body: { url: "https://example.com/theirs" } })).body
      .data;
    const replay = await t.call("POST", `/dashboard/webhooks/endpoints/${theirEndpoint.id}/replay`, {
      ...otherAdmin,
      body: { messageId: sent.body.data.messageId },
    });
    expect(replay.status).toBe(404);
    // And nothing of ours changed.
    expect((await t.call("GET", `/dashboard/plans/${plan.id}`, admin)).body.data.name).toBe("Pro");
    expect((await t.call("GET", `/dashboard/webhooks/endpoints/${endpoint.id}/secret`, admin)).body.data.secret).toBe(endpoint.secret);
  });

  test("odd path segments and query values are a 400 or a 404, never a 5xx", async () => {
    for (const segment of ["%00", "%ED%A0%80", "%FF", "%", "a%2Fb", "%20", "x".repeat(5000), "\u{1F600}".repeat(60)]) {
      for (const path of [
        `/dashboard/plans/${segment}`,
        `/dashboard/webhooks/endpoints/${segment}`,
        `/features/${segment}`,
        `/dashboard/members/${segment}`,
      ]) {
        const res = await t.call(path.startsWith("/features") ? "DELETE" : "GET", path, admin);
        expect([path, [400, 404].includes(res.status)]).toEqual([path, true]);
        expectErrorShape(res.body);
      }
    }
    for (const query of [
      "limit=-1",
      "limit=0",
      "limit=201",
      "limit=1.5",
      "limit=99999999999999999999",
      "cursor=",
      "cursor=garbage",
      "cursor=%FF",
      "cursor=%00",
      "limit=1&limit=2",
    ]) {
      for (const list of [
        "/dashboard/plans",
        "/dashboard/coupons",
        "/dashboard/features",
        "/audit-log",
        "/dashboard/webhooks/endpoints",
        "/dashboard/webhooks/notifications",
      ]) {
        const res = await t.call("GET", `${list}?${query}`, admin);
        expect([list, query, res.status]).toEqual([list, query, 400]);
        expectErrorShape(res.body);
      }
    }
  });
});

test("a secret-creating path with a trailing slash is refused before anything is created or kept under its Idempotency-Key", async () => {
  // Such paths were served as without the slash; they are malformed now (src/http/path-rules.ts), so no
  // secret is made, and none can be stored in the clear under the key.
  const cases: [string, unknown][] = [
    ["/dashboard/api-keys/", { name: "Slash", type: "secret" }],
    ["/dashboard/members/", { email: "slash@example.com", roles: ["catalog:read"] }],
    ["/dashboard/webhooks/endpoints/", { url: "https://example.com/slash" }],
    [`/dashboard/webhooks/endpoints/${endpoint.id}/rotate-secret/`, { overlapSeconds: 0 }],
    ["/access-tokens/", { company: { id: "slash-co" }, user: { id: "slash-user" } }],
  ];
  const keptKeys = async () => (await t.db.sql`select count(*)::int as n from idempotency_keys`)[0]!.n;
  for (const [path, body] of cases) {
    const before = await keptKeys();
    const token = path === "/access-tokens/" ? team.keys.secret : team.dashboardAdmin;
    const res = await t.call("POST", path, { token, headers: { "idempotency-key": crypto.randomUUID() }, body });
    expect([path, res.status, Object.keys(res.body.details ?? {})]).toEqual([path, 400, ["path"]]);
    expect(await keptKeys()).toBe(before);
  }
});
