/**
 * Malformed paths are refused before routing: 400 {error, details: {path}} for an empty segment, a dot
 * segment (literal or %2e, which the server resolves before any handler: `…/prices/%2e%2e` arrived as
 * `…/plans/p1/` and deleted the plan) and an encoded slash or backslash, on every route, with nothing changed.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { MALFORMED_PATH_EXPECTED } from "../../src/http/path-rules";

const t = await createTestApp();
const team = await createTeamFixture(t, "Malformed paths");
const admin = { token: team.dashboardAdmin };
const sql = t.db.sql;

const plan = (
  await t.call("POST", "/dashboard/plans", {
    ...admin,
    body: { name: "Kept", prices: [{ billingPeriod: "monthly", amount: "9", currency: "USDC" }] },
  })
).body.data;
const company = "kept-co";
const identified = await t.call("POST", "/events", {
  token: team.keys.legacy,
  body: { event_type: "identify", company: { id: company, name: "Kept Co" } },
});
expect(identified.status).toBe(200);

const state = async () =>
  (
    await sql`select (select count(*) from plans where team_id = ${team.teamId} and archived_at is null)::int as plans,
                     (select count(*) from plan_prices where team_id = ${team.teamId})::int as prices,
                     (select count(*) from companies where team_id = ${team.teamId})::int as companies,
                     (select count(*) from audit_log where team_id = ${team.teamId})::int as audits`
  )[0];

describe("400 before routing, nothing changed", () => {
  const cases: [string, string, unknown?][] = [
    ["DELETE", `/dashboard/plans/${plan.id}/prices/%2e%2e`],
    ["DELETE", `/dashboard/plans/${plan.id}/prices/..`],
    ["DELETE", `/dashboard/plans/${plan.id}/prices/.%2E`],
    ["DELETE", `/dashboard/plans/${plan.id}/prices/%2e`],
    ["DELETE", `/dashboard/plans/${plan.id}/`],
    ["DELETE", `/dashboard/plans//${plan.id}`],
    ["PUT", `/dashboard/plans/${plan.id}/prices/monthly/%2e%2e`, { amount: "1", currency: "USDC" }],
    ["DELETE", `/dashboard/plans/${plan.id}%2fprices%2fmonthly`],
    ["DELETE", `/dashboard/plans/${plan.id}%5Cprices`],
    ["PATCH", `/dashboard/plans/${plan.id}/.`, { name: "Renamed" }],
    ["GET", `//invoices`],
    ["GET", `/invoices/%2e%2e`],
    ["PATCH", `/companies/${identified.body.data.companyId}/`, { name: "Renamed" }],
    ["GET", `/invoice-documents//abc`],
  ];
  // Spread: a third named parameter would be taken for a `done` callback.
  test.each(cases)("%s %s", async (...[method, path, body]) => {
    const before = await state();
    const res = await t.call(method, path, { ...admin, ...(body === undefined ? {} : { body }) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Validation failed", details: { path: MALFORMED_PATH_EXPECTED } });
    expect(await state()).toEqual(before);
  });

  test("the same request without a credential is refused the same way: nothing is resolved first", async () => {
    const res = await t.call("DELETE", `/dashboard/plans/${plan.id}/prices/%2e%2e`);
    expect(res.status).toBe(400);
  });
});

test("well-formed paths still work, dots inside a segment included", async () => {
  expect((await t.call("GET", `/dashboard/plans/${plan.id}`, admin)).status).toBe(200);
  expect((await t.call("GET", "/dashboard/plans/a..b", admin)).status).toBe(404);
  expect((await t.call("GET", "/health")).status).toBe(200);
  expect((await t.call("GET", `/dashboard/plans/${plan.id}`, admin)).body.data.prices).toHaveLength(1);
});
