/**
 * The dashboard's subscription routes over subscriptions in the states the chain flows leave them (rows written
 * through the module's repo functions, test/helpers/subscription-rows.ts): the list filtered and paged, the
 * detail with its mandate and chain operations, cancel at period end and now, resume, and the subscription
 * settings; every write audited with the operator, bad input a 400 naming each field with nothing written,
 * refused transitions a 409 with their code, another team's subscription a 404.
 */
import { describe, expect, test } from "bun:test";
import { createPlan } from "../../src/modules/catalog/plans/edit";
import { createDashboardSession } from "../../src/modules/teams/automation-session";
import { subscriptionSettings } from "../../src/modules/subscriptions/repo";
import { createTestApp } from "../helpers/app";
import { createTeamFixture, dashboardCookie } from "../helpers/fixtures";
import { queuedJobs } from "../helpers/jobs";
import { companyName, subscriptionFixture, txHash } from "../helpers/subscription-rows";

const t = await createTestApp();
const sql = t.db.sql;
const team = await createTeamFixture(t, "Dashboard subscriptions");
const other = await createTeamFixture(t, "Other team");
const dev = { teamId: team.teamId, environment: "development" as const };
const admin = { token: team.dashboardAdmin };
const now = () => new Date(t.clock.now());
const pro = await createPlan(sql, dev, { name: "Pro" });
const free = await createPlan(sql, dev, { name: "Free" });
const dash = (method: string, path: string, body?: unknown, as: object = admin) => t.call(method, `/dashboard${path}`, { ...as, body });
const session = (roles: string[]) =>
  createDashboardSession(sql, { teamId: team.teamId, environment: "development", userEmail: `${roles.join("-")}@test.dev`, roles }, t.clock.now());
const live = (extra: Partial<Parameters<typeof subscriptionFixture>[2]> = {}) =>
  subscriptionFixture(sql, dev, { company: companyName(), planId: pro.id, now: now(), ...extra });
const audits = async (resourceId: string) =>
  sql<{ action: string; actor_kind: string; actor_id: string; details: Record<string, unknown> }[]>`
    select action, actor_kind, actor_id, details from audit_log where team_id = ${team.teamId} and resource_id = ${resourceId} order by chain_seq`;
const row = async (id: string) =>
  (await sql`select status, cancel_at_period_end, canceled_at, cancel_reason from subscriptions where id = ${id}`)[0]!;

describe("GET /dashboard/subscriptions", () => {
  test("newest first in {data, count, nextCursor}, filtered by status and company (ours or the integrator's id), paged by cursor", async () => {
    const listTeam = await createTeamFixture(t, "Lists");
    const tenant = { teamId: listTeam.teamId, environment: "development" as const };
    const plan = await createPlan(sql, tenant, { name: "Pro" });
    const made = [];
    for (const status of ["ACTIVE", "PAST_DUE", "ACTIVE", "TRIALING", "INCOMPLETE"] as const)
      made.push(await subscriptionFixture(sql, tenant, { company: companyName(), planId: plan.id, status, now: now() }));
    const as = { token: listTeam.dashboardAdmin };
    const all = await dash("GET", "/subscriptions", undefined, as);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ count: 5, nextCursor: null });
    expect(all.body.data.map((s: { id: string }) => s.id)).toEqual(made.map((m) => m.subscription.id).reverse());
    expect(all.body.data[4]).toMatchObject({ status: "ACTIVE", price: "10.000000", mandateId: made[0]!.mandate!.id, cancelAtPeriodEnd: false });
    // The names an operator reads a subscription by: the company's (and the integrator's id for it) and the plan's.
    expect(all.body.data[4]).toMatchObject({
      companyId: made[0]!.company.id,
      companyName: made[0]!.company.name,
      companyExternalId: made[0]!.company.external_id,
      planId: plan.id,
      planName: "Pro",
    });
    expect(all.body.data[0]).toMatchObject({ status: "INCOMPLETE", mandateId: null });

    const active = await dash("GET", "/subscriptions?status=ACTIVE", undefined, as);
    expect(active.body.data.map((s: { id: string }) => s.id)).toEqual([made[2]!.subscription.id, made[0]!.subscription.id]);
    const company = made[1]!.company;
    for (const ref of [company.id, company.external_id!]) {
      const byCompany = await dash("GET", `/subscriptions?companyId=${ref}`, undefined, as);
      expect(byCompany.body.data.map((s: { id: string }) => s.id)).toEqual([made[1]!.subscription.id]);
    }
    expect((await dash("GET", `/subscriptions?companyId=${company.id}&status=ACTIVE`, undefined, as)).body.data).toEqual([]);
    expect((await dash("GET", "/subscriptions?companyId=nobody", undefined, as)).body).toEqual({ data: [], count: 0, nextCursor: null });

    const first = await dash("GET", "/subscriptions?status=ACTIVE&limit=1", undefined, as);
    expect(first.body.count).toBe(1);
    const second = await dash("GET", `/subscriptions?status=ACTIVE&limit=1&cursor=${first.body.nextCursor}`, undefined, as);
    expect(second.body).toMatchObject({ count: 1, nextCursor: null, data: [{ id: made[0]!.subscription.id }] });
    // A cursor is bound to its filters and its team.
    const foreign = await dash("GET", `/subscriptions?status=PAST_DUE&cursor=${first.body.nextCursor}`, undefined, as);
    expect(foreign.status).toBe(400);
    expect(Object.keys(foreign.body.details)).toEqual(["query.cursor"]);
    expect((await dash("GET", `/subscriptions?status=ACTIVE&limit=1&cursor=${first.body.nextCursor}`)).status).toBe(400);
    // Another team sees none of them.
    expect((await dash("GET", "/subscriptions", undefined, { token: other.dashboardAdmin })).body.count).toBe(0);
  });

  test("bad filters are one 400 naming each; the catalog role is refused", async () => {
    const bad = await dash("GET", "/subscriptions?status=active&limit=500");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: expect.any(String), details: expect.objectContaining({ "query.status": expect.any(String) }) });
    expect((await dash("GET", "/subscriptions?limit=0")).body.details).toHaveProperty(["query.limit"]);
    const catalog = await dash("GET", "/subscriptions", undefined, { token: team.dashboardCatalog });
    expect(catalog.status).toBe(403);
    expect(catalog.body.code).toBe("missing_permission");
  });
});

describe("GET /dashboard/subscriptions/{id}", () => {
  test("the subscription with its mandate and recent chain operations, newest first; nothing about the operator", async () => {
    const { subscription, mandate, operations } = await live({
      operations: [
        { kind: "activation", amount: 10_000_000n, end: { status: "succeeded", txHash: txHash() } },
        { kind: "renewal", amount: 10_000_000n, end: { status: "failed", reason: "insufficient_balance", detail: "The payer holds 3 of the token" } },
      ],
    });
    const res = await dash("GET", `/subscriptions/${subscription.id}`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({
      id: subscription.id,
      status: "ACTIVE",
      planId: pro.id,
      planName: "Pro",
      mandateId: mandate!.id,
      recipientWallet: subscription.payee_wallet,
    });
    expect(d.mandate).toMatchObject({ id: mandate!.id, status: "ACTIVE", authorizedAmount: "100000000", remainingAmount: "90000000" });
    expect(d.operations).toEqual([
      {
        id: operations[1]!.id,
        kind: "renewal",
        status: "failed",
        amount: "10000000",
        network: "sepolia",
        txHash: null,
        invoiceId: null,
        paymentId: null,
        periodStart: expect.any(String),
        attempt: 0,
        failureReason: "insufficient_balance",
        failureDetail: "The payer holds 3 of the token",
        createdAt: expect.any(String),
        completedAt: expect.any(String),
      },
      expect.objectContaining({
        id: operations[0]!.id,
        kind: "activation",
        status: "succeeded",
        txHash: operations[0]!.tx_hash,
        failureReason: null,
      }),
    ]);
    // Only what was asked of the chain and its answer: no reference to replay, no key, no endpoint.
    expect(JSON.stringify(d)).not.toContain(operations[0]!.reference);
    expect(JSON.stringify(d)).not.toContain(subscription.activation_reference);
  });

  test("another team's subscription, an unknown one and an id of another shape are 404 {error}", async () => {
    const { subscription } = await live();
    for (const [id, as] of [
      [subscription.id, { token: other.dashboardAdmin }],
      ["sub_unknown", admin],
      ["in_notasubscription", admin],
    ] as const) {
      const res = await dash("GET", `/subscriptions/${id}`, undefined, as);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
  });
});

describe("POST /dashboard/subscriptions/{id}/cancel and /resume", () => {
  test("at period end by default, then resumed; each audited with the signed-in operator; resuming again changes nothing", async () => {
    const { subscription } = await live();
    const scheduled = await dash("POST", `/subscriptions/${subscription.id}/cancel`, { reason: "Customer asked by email" });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.data).toMatchObject({ status: "ACTIVE", cancelAtPeriodEnd: true, canceledAt: null, mandate: { status: "ACTIVE" } });
    const resumed = await dash("POST", `/subscriptions/${subscription.id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.data).toMatchObject({ status: "ACTIVE", cancelAtPeriodEnd: false });
    expect((await dash("POST", `/subscriptions/${subscription.id}/resume`)).body.data.cancelAtPeriodEnd).toBe(false);
    const entries = await audits(subscription.id);
    expect(entries.map((a) => a.action)).toEqual(["subscription.cancel_scheduled", "subscription.resume"]);
    expect(entries[0]!.details).toMatchObject({ reason: "Customer asked by email", status: "ACTIVE" });
    expect(entries.every((a) => a.actor_kind === "dashboard" && a.actor_id.startsWith("op_"))).toBe(true);
  });

  test("a body may be left out: at period end, as an empty body", async () => {
    const { subscription } = await live();
    const res = await t.call("POST", `/dashboard/subscriptions/${subscription.id}/cancel`, admin);
    expect(res.status).toBe(200);
    expect(res.body.data.cancelAtPeriodEnd).toBe(true);
  });

  test("now: CANCELED, the company on the fallback plan, the mandate revoked with its on-chain revoke queued, audited", async () => {
    expect((await dash("PUT", "/subscription-settings", { fallbackPlanId: free.id })).status).toBe(200);
    const { subscription, company, mandate } = await live({ status: "PAST_DUE" });
    const res = await dash("POST", `/subscriptions/${subscription.id}/cancel`, { atPeriodEnd: false, reason: "Fraud" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "CANCELED", cancelReason: "Fraud", cancelAtPeriodEnd: false, nextAttemptAt: null });
    expect(res.body.data.canceledAt).toBe(now().toISOString());
    expect(res.body.data.mandate).toMatchObject({ id: mandate!.id, status: "REVOKED", revokeReason: "Subscription canceled: Fraud" });
    const [co] = await sql`select active_plan_id from companies where id = ${company.id}`;
    expect(co!.active_plan_id).toBe(free.id);
    const jobs = await queuedJobs(sql);
    expect(
      jobs.some((j) => j.task === "subscriptions.revoke_onchain" && (j.payload as { subscriptionId: string }).subscriptionId === subscription.id),
    ).toBe(true);
    expect((await audits(subscription.id)).map((a) => [a.action, a.details.reason])).toEqual([["subscription.cancel", "Fraud"]]);
    // Ended: neither cancel nor resume applies any more.
    for (const [path, body] of [
      ["cancel", { atPeriodEnd: false }],
      ["cancel", {}],
      ["resume", undefined],
    ] as const) {
      const again = await dash("POST", `/subscriptions/${subscription.id}/${path}`, body);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: expect.any(String), code: "subscription_not_live" });
    }
    expect(await audits(subscription.id)).toHaveLength(1);
  });

  test("a subscription never activated is 409 subscription_not_live; another team's is 404; nothing changes", async () => {
    const { subscription } = await live({ status: "INCOMPLETE" });
    const res = await dash("POST", `/subscriptions/${subscription.id}/cancel`, { atPeriodEnd: false });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("subscription_not_live");
    const active = await live();
    for (const path of ["cancel", "resume"]) {
      const foreign = await dash("POST", `/subscriptions/${active.subscription.id}/${path}`, { atPeriodEnd: false }, { token: other.dashboardAdmin });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ error: expect.any(String) });
    }
    expect(await row(active.subscription.id)).toMatchObject({ status: "ACTIVE", cancel_at_period_end: false });
    expect(await audits(active.subscription.id)).toHaveLength(0);
  });

  test("now, while a renewal's pull is in flight: 409 operation_in_progress with Retry-After, nothing changed; at period end is still taken", async () => {
    const { subscription } = await live({ operations: [{ kind: "renewal", amount: 10_000_000n, end: { status: "pending" } }] });
    const res = await dash("POST", `/subscriptions/${subscription.id}/cancel`, { atPeriodEnd: false });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: expect.any(String), code: "operation_in_progress" });
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await row(subscription.id)).toMatchObject({ status: "ACTIVE", canceled_at: null });
    expect((await sql`select status from mandates where subscription_id = ${subscription.id}`)[0]!.status).toBe("ACTIVE");
    expect(await audits(subscription.id)).toHaveLength(0);
    const later = await dash("POST", `/subscriptions/${subscription.id}/cancel`, { atPeriodEnd: true });
    expect(later.body.data).toMatchObject({ status: "ACTIVE", cancelAtPeriodEnd: true });
  });

  test("bad input is one 400 naming each field, and nothing is written", async () => {
    const { subscription } = await live();
    const res = await dash("POST", `/subscriptions/${subscription.id}/cancel`, { atPeriodEnd: "no", reason: "   " });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details).sort()).toEqual(["body.atPeriodEnd", "body.reason"]);
    expect(await row(subscription.id)).toMatchObject({ status: "ACTIVE", cancel_at_period_end: false });
    expect(await audits(subscription.id)).toHaveLength(0);
  });

  test("billing:read reads but may not cancel; billing:write cancels; a cookie write needs the CSRF token", async () => {
    const { subscription } = await live();
    const reader = await session(["billing:read"]);
    const writer = await session(["billing:write"]);
    expect((await dash("GET", `/subscriptions/${subscription.id}`, undefined, { token: reader.session })).status).toBe(200);
    expect((await dash("POST", `/subscriptions/${subscription.id}/cancel`, {}, { token: reader.session })).body.code).toBe("missing_permission");
    expect((await dash("POST", `/subscriptions/${subscription.id}/cancel`, {}, { cookie: `be_session=${writer.session}` })).body.code).toBe(
      "csrf_failed",
    );
    const ok = await dash("POST", `/subscriptions/${subscription.id}/cancel`, {}, dashboardCookie(writer.session, writer.csrfToken));
    expect(ok.status).toBe(200);
  });
});

describe("GET and PUT /dashboard/subscription-settings", () => {
  test("defaults, then partial updates kept and read by the renewals' reader; audited with before and after; per environment", async () => {
    const settingsTeam = await createTeamFixture(t, "Settings");
    const tenant = { teamId: settingsTeam.teamId, environment: "development" as const };
    const plan = await createPlan(sql, tenant, { name: "Free" });
    const as = { token: settingsTeam.dashboardAdmin };
    expect((await dash("GET", "/subscription-settings", undefined, as)).body).toEqual({
      data: { taxRate: "0.0000", dunningRetryHours: [24, 72, 168], fallbackPlanId: null },
    });
    const put = await dash("PUT", "/subscription-settings", { taxRate: "7.25", dunningRetryHours: [12, 48] }, as);
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual({ taxRate: "7.2500", dunningRetryHours: [12, 48], fallbackPlanId: null });
    const more = await dash("PUT", "/subscription-settings", { taxRate: 19, fallbackPlanId: plan.id }, as);
    expect(more.body.data).toEqual({ taxRate: "19.0000", dunningRetryHours: [12, 48], fallbackPlanId: plan.id });
    expect((await dash("GET", "/subscription-settings", undefined, as)).body.data).toEqual(more.body.data);
    expect(await subscriptionSettings(sql, tenant)).toEqual({ taxRate: 190_000n, dunningRetryHours: [12, 48], fallbackPlanId: plan.id });
    // null clears the fallback; [] cancels at the first failure.
    const cleared = await dash("PUT", "/subscription-settings", { fallbackPlanId: null, dunningRetryHours: [] }, as);
    expect(cleared.body.data).toEqual({ taxRate: "19.0000", dunningRetryHours: [], fallbackPlanId: null });
    // The other environment keeps its own.
    expect(await subscriptionSettings(sql, { ...tenant, environment: "production" })).toEqual({
      taxRate: 0n,
      dunningRetryHours: [24, 72, 168],
      fallbackPlanId: null,
    });
    const own =
      await sql`select details from audit_log where team_id = ${settingsTeam.teamId} and action = 'subscription_settings.update' order by chain_seq`;
    expect(own.map((a) => a.details.fields)).toEqual([
      ["dunningRetryHours", "taxRate"],
      ["fallbackPlanId", "taxRate"],
      ["dunningRetryHours", "fallbackPlanId"],
    ]);
    expect(own[1]!.details).toMatchObject({
      before: { taxRate: "7.2500", fallbackPlanId: null },
      after: { taxRate: "19.0000", fallbackPlanId: plan.id },
    });
  });

  test("bad input: one 400 naming every bad field, and nothing written", async () => {
    const badTeam = await createTeamFixture(t, "Bad settings");
    const tenant = { teamId: badTeam.teamId, environment: "development" as const };
    const addOn = await createPlan(sql, tenant, { name: "Seats", kind: "add_on" });
    const foreignPlan = await createPlan(sql, { ...tenant, environment: "production" }, { name: "Live" });
    const as = { token: badTeam.dashboardAdmin };
    const auditCount = async () => (await sql`select count(*)::int as n from audit_log where team_id = ${badTeam.teamId}`)[0]!.n as number;
    const auditsBefore = await auditCount();
    const cases: [unknown, string[]][] = [
      [{ taxRate: "100.5" }, ["body.taxRate"]],
      [{ taxRate: "7.12345", dunningRetryHours: [24, 24] }, ["body.dunningRetryHours[1]", "body.taxRate"]],
      [{ taxRate: -1 }, ["body.taxRate"]],
      [{ dunningRetryHours: [0] }, ["body.dunningRetryHours[0]"]],
      [{ dunningRetryHours: [8785] }, ["body.dunningRetryHours[0]"]],
      [{ dunningRetryHours: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }, ["body.dunningRetryHours"]],
      [{ dunningRetryHours: [72, 24], fallbackPlanId: "plan_nope" }, ["body.dunningRetryHours[1]", "body.fallbackPlanId"]],
      [{ fallbackPlanId: addOn.id }, ["body.fallbackPlanId"]],
      [{ fallbackPlanId: foreignPlan.id }, ["body.fallbackPlanId"]],
      [{ fallbackPlanId: other.teamId }, ["body.fallbackPlanId"]],
      [{ fallbackPlanId: "" }, ["body.fallbackPlanId"]],
    ];
    for (const [body, fields] of cases) {
      const res = await dash("PUT", "/subscription-settings", body, as);
      expect({ body, status: res.status, fields: Object.keys(res.body.details ?? {}).sort() }).toEqual({ body, status: 400, fields });
    }
    expect((await sql`select count(*)::int as n from subscription_settings where team_id = ${badTeam.teamId}`)[0]!.n).toBe(0);
    expect(await auditCount()).toBe(auditsBefore);
  });

  test("an archived plan takes no new fallback role, but one already the fallback stays allowed", async () => {
    const archTeam = await createTeamFixture(t, "Archived fallback");
    const tenant = { teamId: archTeam.teamId, environment: "development" as const };
    const [kept, fresh] = [await createPlan(sql, tenant, { name: "Kept" }), await createPlan(sql, tenant, { name: "Fresh" })];
    const as = { token: archTeam.dashboardAdmin };
    expect((await dash("PUT", "/subscription-settings", { fallbackPlanId: kept.id }, as)).status).toBe(200);
    await sql`update plans set archived_at = now() where id in ${sql([kept.id, fresh.id])}`;
    expect((await dash("PUT", "/subscription-settings", { fallbackPlanId: kept.id, taxRate: "1" }, as)).status).toBe(200);
    const res = await dash("PUT", "/subscription-settings", { fallbackPlanId: fresh.id }, as);
    expect(res.status).toBe(400);
    expect(res.body.details["body.fallbackPlanId"]).toContain("Archived");
  });

  test("concurrent partial updates each keep the other's field", async () => {
    const raceTeam = await createTeamFixture(t, "Race");
    const as = { token: raceTeam.dashboardAdmin };
    await Promise.all([
      dash("PUT", "/subscription-settings", { taxRate: "5" }, as),
      dash("PUT", "/subscription-settings", { dunningRetryHours: [6] }, as),
    ]);
    expect((await dash("GET", "/subscription-settings", undefined, as)).body.data).toEqual({
      taxRate: "5.0000",
      dunningRetryHours: [6],
      fallbackPlanId: null,
    });
  });

  test("billing:read reads the settings, and only billing:write changes them", async () => {
    const reader = await session(["billing:read"]);
    expect((await dash("GET", "/subscription-settings", undefined, { token: reader.session })).status).toBe(200);
    const refused = await dash("PUT", "/subscription-settings", { taxRate: "1" }, { token: reader.session });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("missing_permission");
  });
});
