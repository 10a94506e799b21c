/**
 * Every answer carries `Cache-Control: private, no-store` (unless it set its own, as the API reference page
 * does) and `X-Content-Type-Options: nosniff`: successes, refusals of a document link, and the refusals
 * written before or around the routes (404, malformed path, 413, 415, 500, 503).
 */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { serverFetch } from "../../src/app";

const t = await createTestApp({ BODY_LIMIT_BYTES: "2048" });
const team = await createTeamFixture(t, "Answer headers");
const key = { token: team.keys.secret };

/** The server's own wrapping around an app that fails as given, outside any route's error handling. */
const failingServer = (error: Error) => serverFetch(t.deps, { handle: () => Promise.reject(error) } as never);
const lost = Object.assign(new Error("write CONNECTION_CLOSED 127.0.0.1:5432"), { code: "CONNECTION_CLOSED" });

const cases: [string, number, () => Promise<{ status: number; headers: Headers }>][] = [
  ["a success", 200, () => t.call("GET", "/health")],
  ["an unknown route", 404, () => t.call("GET", "/no-such-route", key)],
  ["a method the route does not take", 404, () => t.call("PUT", "/health", key)],
  ["a malformed path", 400, () => t.call("GET", "//invoices", key)],
  ["a field", 400, () => t.call("GET", "/invoices?limit=0", key)],
  ["a document link token too long", 400, () => t.call("GET", `/invoice-documents/${"a".repeat(1100)}`)],
  ["a document link token with NUL", 400, () => t.call("GET", "/invoice-documents/abc%00def")],
  ["a forged document link", 403, () => t.call("GET", "/invoice-documents/not-a-signed-token")],
  ["no credential", 401, () => t.call("GET", "/invoices")],
  ["a body over the limit", 413, () => t.call("POST", "/events", { ...key, body: { event_type: "track", name: "x".repeat(4000) } })],
  [
    "a body that is not JSON",
    415,
    () => t.call("POST", "/events", { token: team.keys.legacy, rawBody: "a=b", headers: { "content-type": "text/plain" } }),
  ],
  ["an unexpected failure", 500, () => Promise.resolve(failingServer(new Error("boom"))(new Request("http://localhost/api/v1/fails")))],
  ["the database away", 503, () => Promise.resolve(failingServer(lost)(new Request("http://localhost/api/v1/fails")))],
];

test.each(cases)("%s: %d with private, no-store and nosniff", async (...[, status, call]) => {
  const res = await call();
  expect(res.status).toBe(status);
  expect(res.headers.get("cache-control")).toBe("private, no-store");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("x-request-id")).toBeTruthy();
});

test("the database away is 503 {error, code: database_unavailable} with Retry-After", async () => {
  const res = await failingServer(lost)(new Request("http://localhost/api/v1/fails"));
  expect(res.status).toBe(503);
  expect(await res.json()).toEqual({ error: "The database is unavailable; retry shortly", code: "database_unavailable" });
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
});

test("an answer with its own caching keeps it, and still says nosniff", async () => {
  const res = await t.call("GET", "/reference");
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-cache");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
});
