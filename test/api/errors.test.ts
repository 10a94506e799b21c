/** The spec's three error shapes, request ids, the body limit, and a 500 that reveals nothing. */
import { describe, expect, test } from "bun:test";
import { createApp, serverFetch } from "../../src/app";
import { Logger } from "../../src/lib/logger";
import { createTestApp } from "../helpers/app";
import { bunBodyBackstop } from "../../src/http/body-limit";

import { createTeamFixture } from "../helpers/fixtures";
import { contractChecked } from "../helpers/contract";

const t = await createTestApp({ BODY_LIMIT_BYTES: "2048" });
const team = await createTeamFixture(t);

describe("404 {error}", () => {
  test("an unknown route", async () => {
    const res = await t.call("GET", "/no-such-thing", { token: team.keys.secret });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Not found" });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });
  test("an unknown method on a known path", async () => {
    const res = await t.call("DELETE", "/companies", { token: team.keys.secret });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Not found" });
  });
});

describe("400 {error, details} with field paths", () => {
  test("a body field out of range and a nested field of the wrong format", async () => {
    const res = await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { email: "not-an-email" }, ttlSeconds: 59 } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(["details", "error"]);
    expect(res.body.details["body.ttlSeconds"]).toBe("Expected an integer from 60 to 900");
    expect(res.body.details["body.company.email"]).toContain("email");
  });
  test("a query parameter sent more than once is a 400 naming it, never one of its values picked in silence", async () => {
    const expected = (name: string) => ({ error: "Validation failed", details: { [`query.${name}`]: "Given more than once: send it once" } });
    const cases: [string, string, string][] = [
      ["/check?company=a&feature=sso&feature=api-calls", team.keys.secret, "feature"],
      ["/check?company=a&company=b&feature=sso", team.keys.publishable, "company"],
      ["/companies?limit=1&limit=2", team.keys.secret, "limit"],
      ["/companies?search=a&search=a", team.keys.secret, "search"],
      ["/companies?s%65arch=a&search=b", team.keys.secret, "search"], // the same name, one of them percent-encoded
    ];
    for (const [path, token, name] of cases) {
      const res = await t.call("GET", path, { token });
      expect([path, res.status, res.body]).toEqual([path, 400, expected(name)]);
    }
    // Credentials still come first, and parameters the route does not read are ignored as before.
    expect((await t.call("GET", "/companies?limit=1&limit=2")).status).toBe(401);
    expect((await t.call("GET", "/companies?utm=a&utm=b", { token: team.keys.secret })).status).toBe(200);
  });
  test("ttlSeconds above 900", async () => {
    const res = await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "x" }, ttlSeconds: 901 } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details)).toContain("body.ttlSeconds");
  });
  test("a company with none of id, wallet, email", async () => {
    const res = await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { name: "Nameless" } } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Validation failed", details: { "body.company": "At least one of id, wallet, email is required" } });
  });
  test("unknown body fields, nested ones too, are a 400 naming each (documented), and nothing is stored", async () => {
    const res = await t.call("POST", "/api-keys/tokens", {
      token: team.keys.secret,
      body: { company: { id: "extra-field-co", shoeSize: 44 }, scope: "all" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: "Validation failed",
      details: { "body.company.shoeSize": expect.stringMatching(/^Unknown field/), "body.scope": expect.stringMatching(/^Unknown field/) },
    });
    expect(await t.db.sql`select 1 from companies where external_id = 'extra-field-co'`).toHaveLength(0);
  });
  test("malformed JSON", async () => {
    const res = await t.call("POST", "/api-keys/tokens", {
      token: team.keys.secret,
      rawBody: "{nope",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Malformed request body", details: { body: "Expected a valid JSON document" } });
  });
  test("text PostgreSQL cannot store (NUL) and objects nested too deep are a 400 naming the field", async () => {
    const cases: [string, string, Record<string, unknown> | undefined, string][] = [
      ["POST", "/events", { event_type: "track", name: "a\u0000b", company: { id: "nul-co" } }, "body.name"],
      ["POST", "/events", { event_type: "identify", company: { id: "nul-co" }, user: { id: "nul-user" }, traits: { k: "\u0000" } }, "body.traits.k"],
      ["POST", "/events", { event_type: "identify", company: { id: "nul-co" }, traits: { "a\u0000": 1 } }, "body.traits.a\u0000"],
      ["GET", "/companies?search=a%00b", undefined, "query.search"],
      ["POST", "/usage/consume", { company: "nul-co", feature: "api-calls", idempotencyKey: "k\u0000" }, "body.idempotencyKey"],
    ];
    for (const [method, path, body, field] of cases) {
      const token = path === "/events" ? team.keys.legacy : team.keys.secret;
      const res = await t.call(method, path, { token, body }); // sent as JSON's \u0000 escape
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "Validation failed", details: { [field]: "Must not contain the NUL character (\\u0000)" } });
    }
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 40; i++) deep = { d: deep };
    const nested = await t.call("POST", "/events", {
      token: team.keys.legacy,
      body: { event_type: "identify", company: { id: "nul-co" }, traits: deep },
    });
    expect(nested.status).toBe(400);
    expect(Object.values(nested.body.details)).toEqual(["Nested more than 32 levels deep"]);
    const [written] = await t.db
      .sql`select (select count(*)::int from companies where external_id = 'nul-co') + (select count(*)::int from users where external_id = 'nul-user') as n`;
    expect(written!.n).toBe(0);
  });
  test("numbers that would not be stored as sent (1e400, integers past 2^53) are a 400 and change nothing", async () => {
    const companyId = (
      await t.call("POST", "/events", {
        token: team.keys.legacy,
        body: { event_type: "identify", company: { id: "big-number-co", traits: { seats: 5 } } },
      })
    ).body.data.companyId;
    const cases: [string, string, string, string, string][] = [
      ["PATCH", `/companies/${companyId}`, '{"traits":{"seats":1e400}}', "body.traits.seats", "Number out of range"],
      [
        "POST",
        "/events",
        '{"event_type":"identify","company":{"id":"big-number-co","traits":{"seats":-1e400}}}',
        "body.company.traits.seats",
        "Number out of range",
      ],
      [
        "POST",
        "/events",
        '{"event_type":"identify","company":{"id":"big-number-co","traits":{"ref":9007199254740993}}}',
        "body.company.traits.ref",
        "Whole numbers of magnitude 2^53 or more may not be stored exactly: send them as strings",
      ],
      [
        "POST",
        "/events",
        '{"event_type":"identify","company":{"id":"big-number-co","traits":{"ref":1e300}}}',
        "body.company.traits.ref",
        "Whole numbers of magnitude 2^53 or more may not be stored exactly: send them as strings",
      ],
    ];
    for (const [method, path, rawBody, field, message] of cases) {
      const token = path === "/events" ? team.keys.legacy : team.keys.secret;
      const res = await t.call(method, path, { token, rawBody, headers: { "content-type": "application/json" } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "Validation failed", details: { [field]: message } });
    }
    const [company] = await t.db.sql`select traits from companies where id = ${companyId}`;
    expect(company!.traits).toEqual({ seats: 5 });
    // The largest exact integer and ordinary fractions are stored as sent.
    const ok = await t.call("POST", "/events", {
      token: team.keys.legacy,
      rawBody: '{"event_type":"identify","company":{"id":"big-number-co","traits":{"ref":9007199254740991,"ratio":0.25,"tiny":1.5e-300}}}',
      headers: { "content-type": "application/json" },
    });
    expect(ok.status).toBe(200);
    const [stored] = await t.db.sql`select traits from companies where id = ${companyId}`;
    expect(stored!.traits).toEqual({ seats: 5, ref: 9007199254740991, ratio: 0.25, tiny: 1.5e-300 });
  });
  test("bad input changes nothing", async () => {
    const before = await t.db.sql`select count(*)::int as n from companies`;
    await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "should-not-exist" }, ttlSeconds: 5 } });
    const after = await t.db.sql`select count(*)::int as n from companies`;
    expect(after[0]!.n).toBe(before[0]!.n);
  });
});

describe("credentials before input: 401 and 403 come before any 400 (spec, Authentication rule 9)", () => {
  const invalid: [string, string, Record<string, unknown> | undefined][] = [
    ["POST", "/events", { event_type: "nope" }],
    ["POST", "/usage/consume", { quantity: -1 }],
    ["GET", "/check", undefined],
    ["GET", "/companies?limit=999", undefined],
    ["POST", "/api-keys/tokens", { ttlSeconds: 5 }],
  ];
  test.each(invalid)("%s %s with an invalid request and no credential is 401", async (method, path, body) => {
    const res = await t.call(method, path, { body });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: expect.any(String), code: expect.any(String) });
  });
  test("a credential of the wrong kind for the route is 403 whatever the input", async () => {
    const events = await t.call("POST", "/events", { token: team.keys.secret, body: { event_type: "nope", idempotencyKey: "k".repeat(200) } });
    expect(events.status).toBe(403);
    const publishable = await t.call("POST", "/usage/consume", { token: team.keys.publishable, body: { quantity: "lots" } });
    expect(publishable.status).toBe(403);
  });
  test("with a valid credential the same input is the 400", async () => {
    const res = await t.call("POST", "/events", { token: team.keys.legacy, body: { event_type: "nope" } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details)).toContain("body.event_type");
  });
});

describe("413 body limit", () => {
  test("a body over BODY_LIMIT_BYTES is refused before parsing", async () => {
    const body = JSON.stringify({ company: { id: "too-big", traits: { blob: "a".repeat(4000) } } });
    const res = await t.call("POST", "/api-keys/tokens", {
      token: team.keys.secret,
      rawBody: body,
      headers: { "content-type": "application/json", "content-length": String(body.length) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: "Request body exceeds 2048 bytes" });
  });

  test("the 413 is in the request log like any other answer, with its request id", async () => {
    t.logs.length = 0;
    const body = JSON.stringify({ blob: "a".repeat(4000) });
    const res = await t.call("POST", "/events", {
      token: team.keys.legacy,
      rawBody: body,
      headers: { "content-type": "application/json", "x-request-id": "too-large-000001" },
    });
    expect(res.status).toBe(413);
    const lines = t.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === "request");
    expect(lines).toEqual([expect.objectContaining({ requestId: "too-large-000001", method: "POST", path: "/api/v1/events", status: 413 })]);
  });

  test("over a real socket, declared or chunked, the 413 is the spec's {error} with a request id", async () => {
    // As src/index.ts serves: Bun's own limit is a far backstop, ours answers.
    const server = Bun.serve({ port: 0, maxRequestBodySize: bunBodyBackstop(2048), fetch: serverFetch(t.deps, t.app) });
    const fetch = contractChecked((request) => globalThis.fetch(request));
    try {
      const url = `http://127.0.0.1:${server.port}/api/v1/events`;
      const headers = { authorization: `Bearer ${team.keys.legacy}`, "content-type": "application/json" };
      const big = JSON.stringify({ event_type: "identify", company: { id: "too-big-socket" }, traits: { blob: "a".repeat(4000) } });
      const chunked = (text: string) => new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(text)), c.close()) });
      for (const body of [big, chunked(big)]) {
        const res = await fetch(new Request(url, { method: "POST", headers, body }));
        expect(res.status).toBe(413);
        expect(res.headers.get("x-request-id")).toMatch(/^req_/);
        expect(await res.json()).toEqual({ error: "Request body exceeds 2048 bytes" });
      }
      const small = await fetch(
        new Request(url, { method: "POST", headers, body: chunked(JSON.stringify({ event_type: "identify", company: { id: "small-chunked" } })) }),
      );
      expect(small.status).toBe(200);
      const [created] = await t.db.sql`select count(*)::int as n from companies where external_id = 'too-big-socket'`;
      expect(created!.n).toBe(0);
    } finally {
      server.stop(true);
    }
  });
});

describe("415: request bodies are JSON", () => {
  test("a form, multipart, text or untyped body is 415 {error} before any route reads it, and changes nothing", async () => {
    // With the session's CSRF token, so the media type is what is refused (without it, csrf_failed comes first).
    const cookie = `be_session=${team.dashboardAdmin}`;
    const csrf = { "x-csrf-token": team.dashboardAdminCsrf };
    const [before] = await t.db.sql`select (select count(*) from payment_links)::int as links, (select count(*) from companies)::int as companies`;
    const form = new FormData();
    form.set("amount", "1000");
    const bodies: [string | undefined, BodyInit][] = [
      ["application/x-www-form-urlencoded", "amount=1000&network=base-sepolia&acceptedToken=USDC"],
      ["text/plain", JSON.stringify({ amount: "1000" })],
      [undefined, JSON.stringify({ amount: "1000" })],
      ["application/jsonx", "{}"],
    ];
    for (const [type, body] of bodies) {
      const res = await t.call("POST", "/payment-links", {
        cookie,
        headers: type ? { "content-type": type, ...csrf } : csrf,
        rawBody: body as string,
      });
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ error: "Content-Type must be application/json" });
      expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    }
    const handle = contractChecked(serverFetch(t.deps, t.app));
    const multipart = await handle(
      new Request("http://localhost/api/v1/payment-links", { method: "POST", headers: { cookie, ...csrf }, body: form }),
    );
    expect(multipart.status).toBe(415);
    const identify = await t.call("POST", "/events", {
      token: team.keys.legacy,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      rawBody: "event_type=identify&company[id]=form-co",
    });
    expect(identify.status).toBe(415);
    const [after] = await t.db.sql`select (select count(*) from payment_links)::int as links, (select count(*) from companies)::int as companies`;
    expect(after).toEqual(before!);
    // Credentials come first (spec rule 9): no credential is 401, a wrong kind 403, whatever the body.
    const formPost = { headers: { "content-type": "application/x-www-form-urlencoded" }, rawBody: "a=b" };
    expect((await t.call("POST", "/events", formPost)).status).toBe(401);
    expect((await t.call("POST", "/events", { ...formPost, token: team.keys.secret })).status).toBe(403);
  });

  test("a JSON media type in any case, with parameters, is read as JSON", async () => {
    const body = JSON.stringify({ event_type: "identify", company: { id: "any-case-json" } });
    for (const type of ["APPLICATION/JSON", "Application/Json; charset=UTF-8", "application/json;charset=utf-8"]) {
      const res = await t.call("POST", "/events", { token: team.keys.legacy, headers: { "content-type": type }, rawBody: body });
      expect(res.status).toBe(200);
      expect(res.body.data.companyId).toStartWith("comp_");
    }
  });
});

describe("request ids", () => {
  test("a well-formed incoming X-Request-Id is kept, a malformed one replaced", async () => {
    const kept = await t.call("GET", "/health", { headers: { "x-request-id": "client-abc-12345" } });
    expect(kept.headers.get("x-request-id")).toBe("client-abc-12345");
    const replaced = await t.call("GET", "/health", { headers: { "x-request-id": "bad id with spaces" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^req_/);
  });
  test("401 and 403 responses carry one too", async () => {
    expect((await t.call("GET", "/companies")).headers.get("x-request-id")).toMatch(/^req_/);
    expect((await t.call("GET", "/companies", { token: team.keys.publishable })).headers.get("x-request-id")).toMatch(/^req_/);
  });
});

describe("request log", () => {
  test("one JSON line per request, with who called and never the credential", async () => {
    t.logs.length = 0;
    const res = await t.call("GET", "/companies?search=zzz", { token: team.keys.secret, headers: { "x-request-id": "log-check-000001" } });
    expect(res.status).toBe(200);
    await Bun.sleep(5); // the line is written after the response is sent
    t.logger.flush();
    const lines = t.logs.map((l) => JSON.parse(l)).filter((l) => l.requestId === "log-check-000001");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: "request",
      method: "GET",
      path: "/api/v1/companies",
      status: 200,
      credential: { kind: "secret", id: team.keyIds.secret },
    });
    expect(t.logs.join("\n")).not.toContain(team.keys.secret);
  });
});

describe("500 {error}", () => {
  test("an unexpected failure reveals nothing and is logged with its request id", async () => {
    const lines: string[] = [];
    const logger = new Logger("info", (text) => lines.push(text));
    // A pool whose every use fails with an error nobody expects (a closed pool is the database away: a 503).
    const fail = () => {
      throw new TypeError("CONNECTION internals leaked");
    };
    const broken = new Proxy(fail, { get: fail, apply: fail });
    const app = createApp({ ...t.deps, sql: broken as never, logger });
    const response = await app.handle(
      new Request("http://localhost/api/v1/companies", {
        headers: { authorization: `Bearer ${team.keys.secret}`, "x-request-id": "boom-request-0001" },
      }),
    );
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ error: "Internal server error" });
    expect(body).not.toContain("CONNECTION");
    logger.flush();
    const logged = lines
      .join("")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(logged.find((l) => l.msg === "unhandled error")?.requestId).toBe("boom-request-0001");
  });
});

describe("health", () => {
  test("GET /health checks the database without credentials", async () => {
    const res = await t.call("GET", "/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", database: "ok" });
  });
});

describe("a response that breaks its own schema", () => {
  test("is a logged 500 {error}, not a 400 blaming the client", async () => {
    const { Elysia, t: tb } = await import("elysia");
    const { requestContext } = await import("../../src/http/request-context");
    const { errorHandler } = await import("../../src/http/errors");
    const lines: string[] = [];
    const logger = new Logger("info", (text) => lines.push(text));
    const app = new Elysia()
      .use(requestContext({ logger }))
      .use(errorHandler({ logger }))
      .get("/bad", () => ({ n: "not a number" }) as never, { response: tb.Object({ n: tb.Number() }) });
    const res = await app.handle(new Request("http://localhost/bad"));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "Internal server error" });
    logger.flush();
    expect(lines.join("")).toContain("unhandled error");
  });
});
