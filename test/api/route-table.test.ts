/**
 * A route's identity is its row of the route table (src/auth/access.ts ROUTES): createApp checks the mounted
 * routes against it and refuses to boot on a route without a row, a row without a route, or a route whose
 * `access` declaration disagrees with its row. Each case below breaks the app's own routes on purpose.
 */
import { expect, test } from "bun:test";
import { assertRoutesMatchTable, ROUTES, type MountedRoute } from "../../src/auth/access";
import { takesCredential } from "../../src/http/auth";
import { createTestApp } from "../helpers/app";

const t = await createTestApp();
const mounted = t.app.routes as unknown as MountedRoute[];
const check = (routes: MountedRoute[]) => () => assertRoutesMatchTable(routes, takesCredential);

test("the app as built matches the table (createApp ran the same check)", () => {
  expect(check(mounted)).not.toThrow();
});

test("a mounted route without a row is refused, named", () => {
  const extra = { method: "GET", path: "/api/v1/companies/:id/secrets", hooks: {} };
  expect(check([...mounted, extra])).toThrow("Route GET /companies/{id}/secrets is mounted but has no row in ROUTES");
});

test("a row without its route is refused, named", () => {
  const without = mounted.filter((r) => !(r.method === "GET" && r.path === "/api/v1/flags/check"));
  expect(check(without)).toThrow("Route GET /flags/check has a row in ROUTES (src/auth/access.ts) but is not mounted");
});

test("a route whose row has a policy but that does not declare access is refused (it would serve without a credential)", () => {
  const open = mounted.map((r) => (r.method === "GET" && r.path === "/api/v1/check" ? { ...r, hooks: {} } : r));
  expect(check(open)).toThrow("Route GET /check has an access row in ROUTES but does not declare access");
});

test("a public row's route that declares access is refused", () => {
  const checked = mounted.find((r) => r.method === "GET" && r.path === "/api/v1/check")!;
  const health = mounted.map((r) => (r.method === "GET" && r.path === "/api/v1/health" ? { ...r, hooks: checked.hooks } : r));
  expect(check(health)).toThrow("Route GET /health is public in ROUTES but declares access");
});

test("every row names a unique operationId", () => {
  const ids = Object.values(ROUTES).map((row) => row.operationId);
  expect(new Set(ids).size).toBe(ids.length);
});
