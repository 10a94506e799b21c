/**
 * The spec's 27 endpoints (interface-v1.md: the endpoint tables, "Other endpoints named without payloads", the
 * events and credential sections), each a row of the route table and an operation of the served document.
 */
import { expect, test } from "bun:test";
import { ROUTES } from "../../src/auth/access";
import { createTestApp } from "../helpers/app";

const SPEC_ENDPOINTS = [
  "GET /invoices",
  "GET /invoices/{id}",
  "POST /invoices/{id}/refunds",
  "GET /invoices/{id}/credit-notes",
  "POST /subscriptions/activate",
  "POST /companies/plan",
  "PATCH /companies/{id}",
  "POST /mandates/revoke",
  "GET /mandates/{id}/status",
  "GET /checkout-sessions",
  "GET /checkout-sessions/{id}",
  "PUT /features/{id}",
  "DELETE /features/{id}",
  "POST /agent/dispatch",
  "POST /public/escrow/dispute",
  "POST /events",
  "GET /events",
  "POST /api-keys/tokens",
  "POST /access-tokens",
  "GET /check",
  "GET /flags/check",
  "GET /entitlements",
  "POST /usage/consume",
  "GET /companies",
  "GET /users",
  "GET /proofs/zktls",
  "GET /audit-log",
] as const;

test("the spec names 27 endpoints", () => {
  expect(new Set(SPEC_ENDPOINTS).size).toBe(27);
});

test("every endpoint of the spec is a route of the table and an operation of the served document", async () => {
  const t = await createTestApp();
  const doc = (await t.call("GET", "/openapi.json")).body as { paths: Record<string, Record<string, unknown>> };
  const documented = new Set(
    Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path.replace(/^\/api\/v1/, "")}`)),
  );
  const missing = SPEC_ENDPOINTS.filter((endpoint) => !(endpoint in ROUTES) || !documented.has(endpoint));
  expect(missing).toEqual([]);
});
