/**
 * The dashboard's reports over a real database at fixed instants of the test clock: usage per feature per UTC
 * day, revenue per month and currency (paid, refunded, credited, net), renewals, failed charges and dunning per
 * month; the default ranges follow the service's clock; bad or too long ranges are 400 naming the field; roles.
 */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";
import { at, NOW, seedRenewals, seedRevenue, seedUsage } from "./seed";
import { issuedInvoice, line, payInvoice } from "../helpers/invoices";
import type { Tenant } from "../../src/lib/tenant";

const t = await createTestApp();
// Sessions made at NOW (they expire; the seeds move the clock back to when things happened, and return to NOW).
at(t, NOW);
const team = await createTeamFixture(t);
const other = await createTeamFixture(t, "Other team");
const dev: Tenant = { teamId: team.teamId, environment: "development" };
const catalog = await createCatalogFixture(t, team.teamId, "development", 10_000n);
await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "acme", catalog.planId, 1_000n);
const otherCatalog = await createCatalogFixture(t, other.teamId, "development", 10_000n);
await createCompanyOnPlan(t, other.keys.legacy, other.teamId, "acme", otherCatalog.planId);
const admin = (path: string) => t.call("GET", path, { token: team.dashboardAdmin });

await seedUsage(t, team.keys.legacy, "acme");
// Another team's usage is its own.
at(t, "2026-03-10T10:00:00Z");
expect(
  (await t.call("POST", "/usage/consume", { token: other.keys.legacy, body: { company: "acme", feature: "api-calls", quantity: 99 } })).status,
).toBe(200);
at(t, NOW);
await seedRevenue(t, dev);
await seedRenewals(t, dev, catalog.planId);

const zeros = (days: string[], values: Record<string, string>) => days.map((day) => ({ day, quantity: values[day] ?? "0" }));

test("usage: every day of the default range (the last 30 days of the service's clock), units per feature and UTC day", async () => {
  const res = await admin("/dashboard/reports/usage");
  expect(res.status).toBe(200);
  const report = res.body.data;
  expect(report.from).toBe("2026-02-14");
  expect(report.to).toBe("2026-03-15");
  expect(report.interval).toBe("day");
  expect(report.days).toHaveLength(30);
  expect(report.features.map((f: { featureKey: string; total: string }) => [f.featureKey, f.total])).toEqual([
    ["ai-tokens", "7"],
    ["api-calls", "11"],
  ]);
  const apiCalls = report.features.find((f: { featureKey: string }) => f.featureKey === "api-calls");
  expect(apiCalls.points).toEqual(zeros(report.days, { "2026-03-10": "4", "2026-03-12": "5", "2026-03-13": "2" }));
});

test("usage of one feature over a chosen range; a feature without usage is a flat line; an unknown one is 404", async () => {
  const one = await admin("/dashboard/reports/usage?feature=api-calls&from=2026-03-10&to=2026-03-13&interval=day");
  expect(one.status).toBe(200);
  expect(one.body.data.features).toHaveLength(1);
  expect(one.body.data.features[0].points.map((p: { quantity: string }) => p.quantity)).toEqual(["4", "0", "5", "2"]);
  const byId = await admin(`/dashboard/reports/usage?feature=${catalog.features.sso}&from=2026-03-13&to=2026-03-13`);
  expect(byId.body.data.features).toEqual([
    { id: catalog.features.sso, featureKey: "sso", name: "SSO", total: "0", points: [{ day: "2026-03-13", quantity: "0" }] },
  ]);
  const unknown = await admin("/dashboard/reports/usage?feature=nope");
  expect(unknown.status).toBe(404);
  expect(unknown.body).toEqual({ error: "Feature not found" });
  // The other team sees its own usage only.
  const theirs = await t.call("GET", "/dashboard/reports/usage", { token: other.dashboardAdmin });
  expect(theirs.body.data.features.map((f: { featureKey: string; total: string }) => [f.featureKey, f.total])).toEqual([["api-calls", "99"]]);
});

test("revenue per month and currency: paid by paidAt, refunds and credit notes in their month, net = paid - refunded", async () => {
  const res = await admin("/dashboard/reports/revenue?from=2026-01&to=2026-03");
  expect(res.status).toBe(200);
  const report = res.body.data;
  expect(report).toEqual({
    from: "2026-01",
    to: "2026-03",
    months: ["2026-01", "2026-02", "2026-03"],
    currencies: [
      {
        currency: "USDC",
        total: { paid: "150.000000", refunded: "10.000000", credited: "5.000000", net: "140.000000", invoicesPaid: 2 },
        months: [
          { month: "2026-01", paid: "100.000000", refunded: "0.000000", credited: "0.000000", net: "100.000000", invoicesPaid: 1 },
          { month: "2026-02", paid: "50.000000", refunded: "0.000000", credited: "0.000000", net: "50.000000", invoicesPaid: 1 },
          { month: "2026-03", paid: "0.000000", refunded: "10.000000", credited: "5.000000", net: "-10.000000", invoicesPaid: 0 },
        ],
      },
    ],
  });
  const byDefault = await admin("/dashboard/reports/revenue");
  expect([byDefault.body.data.from, byDefault.body.data.to, byDefault.body.data.months.length]).toEqual(["2025-04", "2026-03", 12]);
  const february = await admin("/dashboard/reports/revenue?from=2026-02&to=2026-02");
  expect(february.body.data.currencies[0].total.paid).toBe("50.000000");
  const none = await t.call("GET", "/dashboard/reports/revenue", { token: other.dashboardAdmin });
  expect(none.body.data.currencies).toEqual([]);
});

test("revenue of two currencies: one series each, never added together", async () => {
  const theirs: Tenant = { teamId: other.teamId, environment: "development" };
  const when = new Date("2026-03-05T10:00:00Z");
  for (const micro of [3_000_000n, 2_000_000n]) {
    const invoice = await issuedInvoice(t.db.sql, t.config.chains, theirs, when, [line(micro)]);
    await payInvoice(t.db.sql, t.config.chains, theirs, when, invoice.id, micro);
    // Another settlement currency, as a team settling in two tokens has (written here: the test chain offers one).
    if (micro === 2_000_000n) await t.db.sql`update invoices set currency = 'EURC' where id = ${invoice.id}`;
  }
  const res = await t.call("GET", "/dashboard/reports/revenue?from=2026-03&to=2026-03", { token: other.dashboardAdmin });
  expect(res.body.data.currencies.map((c: { currency: string; total: { paid: string } }) => [c.currency, c.total.paid])).toEqual([
    ["EURC", "2.000000"],
    ["USDC", "3.000000"],
  ]);
});

test("renewals per month: succeeded, failed, every failed charge, dunning retries, recovered, canceled unpaid", async () => {
  const res = await admin("/dashboard/reports/renewals?from=2026-01&to=2026-03");
  expect(res.status).toBe(200);
  const zero = { renewalsSucceeded: 0, renewalsFailed: 0, failedCharges: 0, dunningRetries: 0, recovered: 0, canceledUnpaid: 0 };
  expect(res.body.data).toEqual({
    from: "2026-01",
    to: "2026-03",
    total: { renewalsSucceeded: 2, renewalsFailed: 3, failedCharges: 4, dunningRetries: 2, recovered: 1, canceledUnpaid: 1 },
    months: [
      { month: "2026-01", ...zero, renewalsSucceeded: 2, renewalsFailed: 1, failedCharges: 1, dunningRetries: 1, recovered: 1 },
      { month: "2026-02", ...zero, renewalsFailed: 2, failedCharges: 3, dunningRetries: 1, canceledUnpaid: 1 },
      { month: "2026-03", ...zero },
    ],
  });
});

test("bad dates and ranges: 400 naming the field, with what is expected", async () => {
  const cases: [string, string, RegExp][] = [
    ["/dashboard/reports/usage?from=2026-02-30", "query.from", /calendar day/],
    ["/dashboard/reports/usage?to=yesterday", "query.to", /YYYY-MM-DD/],
    ["/dashboard/reports/usage?from=2026-03-14&to=2026-03-01", "query.from", /On or before the range's end \(2026-03-01\)/],
    ["/dashboard/reports/usage?from=2025-03-14&to=2026-03-15", "query.from", /at most 366 days; this one has 367/],
    ["/dashboard/reports/usage?from=1969-12-31&to=1970-01-01", "query.from", /from 1970/],
    ["/dashboard/reports/usage?interval=week", "query.interval", /day/],
    ["/dashboard/reports/revenue?from=2026-13", "query.from", /Not a month/],
    ["/dashboard/reports/revenue?from=2026-1", "query.from", /YYYY-MM/],
    ["/dashboard/reports/renewals?from=2023-02&to=2026-02", "query.from", /at most 36 months; this one has 37/],
    ["/dashboard/reports/renewals?from=2026-03&to=2026-02", "query.from", /On or before/],
  ];
  for (const [path, field, message] of cases) {
    const res = await admin(path);
    expect({ path, status: res.status }).toEqual({ path, status: 400 });
    expect(Object.keys(res.body.details)).toEqual([field]);
    expect(res.body.details[field]).toMatch(message);
  }
  // The longest ranges allowed are answered.
  expect((await admin("/dashboard/reports/usage?from=2025-03-15&to=2026-03-15")).body.data.days).toHaveLength(366);
  expect((await admin("/dashboard/reports/renewals?from=2023-03&to=2026-02")).body.data.months).toHaveLength(36);
  // The last day and month there are: answered (the range's end would be in year 10000, which no date text carries).
  for (const path of [
    "/dashboard/reports/usage?from=9999-12-31&to=9999-12-31",
    "/dashboard/reports/revenue?to=9999-12",
    "/dashboard/reports/renewals?from=9999-12&to=9999-12",
  ])
    expect({ path, status: (await admin(path)).status }).toEqual({ path, status: 200 });
});

test("roles: catalog:read reads usage, not money or renewals; keys never", async () => {
  const catalogSession = (path: string) => t.call("GET", path, { token: team.dashboardCatalog });
  expect((await catalogSession("/dashboard/reports/usage")).status).toBe(200);
  for (const path of ["/dashboard/reports/revenue", "/dashboard/reports/renewals"]) {
    const res = await catalogSession(path);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("Dashboard role 'billing:read' is required");
  }
  expect((await t.call("GET", "/dashboard/reports/usage", { token: team.keys.secret })).status).toBe(403);
});
