/**
 * `subscription …` and `subscription-settings …` from the operator CLI (subprocesses, as an operator runs them),
 * over subscription rows in the states the chain flows leave them: what the CLI shows is what the dashboard
 * routes show; cancel and resume go through the same service; bad values exit 2 with the API's 400 naming the
 * field; refused transitions exit 1 with their code; every change is audited as the operator.
 */
import { expect, test } from "bun:test";
import { createPlan } from "../../src/modules/catalog/plans/edit";
import { createPlanRecord } from "../../src/modules/catalog/plans/edit";
import { createDashboardSession } from "../../src/modules/teams/automation-session";
import { createTestApp, TEST_SECRETS } from "../helpers/app";
import { companyName, subscriptionFixture, txHash } from "../helpers/subscription-rows";

const SPAWNS_TIMEOUT = 120_000;
const t = await createTestApp();
const sql = t.db.sql;

function cli(...args: string[]) {
  const p = Bun.spawnSync([process.execPath, "src/cli.ts", ...args], { env: { ...process.env, DATABASE_URL: t.db.url, ...TEST_SECRETS } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}
function ok(...args: string[]) {
  const r = cli(...args);
  expect(r).toMatchObject({ code: 0, err: "" });
  return JSON.parse(r.out);
}
const failed = (code: number, ...args: string[]) => {
  const r = cli(...args);
  expect({ args, code: r.code, out: r.out }).toEqual({ args, code, out: "" });
  return JSON.parse(r.err);
};

test(
  "list, show, cancel at period end, resume, cancel now: the dashboard shows the same; refusals exit 1 or 2; audited as the operator",
  async () => {
    const team = ok("team", "create", "--name", "CLI subscriptions").data.id as string;
    const dev = { teamId: team, environment: "development" as const };
    const plan = await createPlan(sql, dev, { name: "Pro" });
    const now = new Date(t.clock.now());
    const active = await subscriptionFixture(sql, dev, {
      company: companyName(),
      planId: plan.id,
      now,
      operations: [{ kind: "activation", amount: 10_000_000n, end: { status: "succeeded", txHash: txHash() } }],
    });
    const pastDue = await subscriptionFixture(sql, dev, { company: companyName(), planId: plan.id, status: "PAST_DUE", now });
    const id = active.subscription.id;

    expect(ok("subscription", "list", "--team", team).data.map((s: { id: string }) => s.id)).toEqual([pastDue.subscription.id, id]);
    const listed = ok("subscription", "list", "--team", team, "--status", "ACTIVE", "--company", active.company.external_id!);
    expect(listed).toMatchObject({ count: 1, nextCursor: null, data: [{ id, mandateId: active.mandate!.id }] });
    const shown = ok("subscription", "show", id, "--team", team).data;
    expect(shown).toMatchObject({
      id,
      status: "ACTIVE",
      mandate: { id: active.mandate!.id },
      operations: [{ kind: "activation", amount: "10000000" }],
    });
    const { session } = await createDashboardSession(sql, { ...dev, userEmail: "ops@test.dev", roles: ["billing:read"] }, t.clock.now());
    expect((await t.call("GET", `/dashboard/subscriptions/${id}`, { token: session })).body.data).toEqual(shown);

    expect(ok("subscription", "cancel", id, "--team", team, "--reason", "Asked by email").data).toMatchObject({
      cancelAtPeriodEnd: true,
      status: "ACTIVE",
    });
    expect(ok("subscription", "resume", "--id", id, "--team", team).data).toMatchObject({ cancelAtPeriodEnd: false });
    const ended = ok("subscription", "cancel", id, "--team", team, "--at-period-end", "false").data;
    expect(ended).toMatchObject({ status: "CANCELED", cancelReason: "canceled by an operator", mandate: { status: "REVOKED" } });

    // Refused by the service: exit 1 with its body; bad input: exit 2 with the API's 400.
    expect(failed(1, "subscription", "resume", id, "--team", team)).toEqual({ error: expect.any(String), code: "subscription_not_live" });
    expect(failed(1, "subscription", "show", "sub_nope", "--team", team)).toEqual({ error: "No subscription sub_nope" });
    expect(failed(1, "subscription", "show", "sub_nope", "--team", "team_nope")).toEqual({ error: "No team team_nope" });
    expect(Object.keys(failed(2, "subscription", "list", "--team", team, "--status", "active").details)).toEqual(["query.status"]);
    expect(failed(2, "subscription", "cancel", pastDue.subscription.id, "--team", team, "--at-period-end", "maybe").error).toContain(
      "--at-period-end",
    );
    expect(Object.keys(failed(2, "subscription", "cancel", pastDue.subscription.id, "--team", team, "--reason", " ").details)).toEqual([
      "body.reason",
    ]);
    expect((await sql`select status, cancel_at_period_end from subscriptions where id = ${pastDue.subscription.id}`)[0]).toEqual({
      status: "PAST_DUE",
      cancel_at_period_end: false,
    });

    const audit =
      await sql`select action, actor_kind, details from audit_log where team_id = ${team} and resource_type = 'subscription' order by chain_seq`;
    expect(audit.map((a) => `${a.action}:${a.actor_kind}`)).toEqual([
      "subscription.cancel_scheduled:operator",
      "subscription.resume:operator",
      "subscription.cancel:operator",
    ]);
    expect(audit[0]!.details.reason).toBe("Asked by email");
  },
  SPAWNS_TIMEOUT,
);

test(
  "subscription-settings show and set: partial, '' clears, the dashboard reads the same; bad values exit 2 naming the field, nothing written",
  async () => {
    const team = ok("team", "create", "--name", "CLI subscription settings").data.id as string;
    const plan = await createPlan(sql, { teamId: team, environment: "development" }, { name: "Free" });
    expect(ok("subscription-settings", "show", "--team", team).data).toEqual({
      taxRate: "0.0000",
      dunningRetryHours: [24, 72, 168],
      fallbackPlanId: null,
    });
    const set = ok(
      "subscription-settings",
      "set",
      "--team",
      team,
      "--tax-rate",
      "7.25",
      "--dunning-retry-hours",
      "12, 48",
      "--fallback-plan",
      plan.id,
    );
    expect(set.data).toEqual({ taxRate: "7.2500", dunningRetryHours: [12, 48], fallbackPlanId: plan.id });
    const cleared = ok("subscription-settings", "set", "--team", team, "--dunning-retry-hours", "", "--fallback-plan", "");
    expect(cleared.data).toEqual({ taxRate: "7.2500", dunningRetryHours: [], fallbackPlanId: null });
    const { session } = await createDashboardSession(
      sql,
      { teamId: team, environment: "development", userEmail: "o@test.dev", roles: ["billing:read"] },
      t.clock.now(),
    );
    expect((await t.call("GET", "/dashboard/subscription-settings", { token: session })).body.data).toEqual(cleared.data);
    // Production is its own.
    expect(ok("subscription-settings", "show", "--team", team, "--environment", "production").data.taxRate).toBe("0.0000");

    expect(
      Object.keys(failed(2, "subscription-settings", "set", "--team", team, "--tax-rate", "101", "--fallback-plan", "plan_nope").details).sort(),
    ).toEqual(["body.fallbackPlanId", "body.taxRate"]);
    expect(Object.keys(failed(2, "subscription-settings", "set", "--team", team, "--dunning-retry-hours", "48,24").details)).toEqual([
      "body.dunningRetryHours[1]",
    ]);
    expect(failed(2, "subscription-settings", "set", "--team", team, "--dunning-retry-hours", "24,x").error).toContain("--dunning-retry-hours");
    expect(ok("subscription-settings", "show", "--team", team).data).toEqual(cleared.data);
    const audit = await sql`select action, actor_kind from audit_log where team_id = ${team} and resource_type = 'subscription_settings'`;
    expect(audit.map((a) => `${a.action}:${a.actor_kind}`)).toEqual([
      "subscription_settings.update:operator",
      "subscription_settings.update:operator",
    ]);
  },
  SPAWNS_TIMEOUT,
);

test(
  "subscription change-plan --preview prints what the dashboard's preview answers, changes nothing; a bad period exits 2",
  async () => {
    // The CLI runs on the system clock: this test's service clock is set to it, so both price the same period.
    t.clock.set(Date.now());
    const team = ok("team", "create", "--name", "CLI plan change").data.id as string;
    const dev = { teamId: team, environment: "development" as const };
    const actor = { kind: "test", id: "test", requestId: null };
    const catalog = { sql, chains: t.config.chains, now: () => new Date(t.clock.now()) };
    const price = (amount: string) => [{ billingPeriod: "monthly" as const, amount, currency: "USDC" }];
    const basic = await createPlanRecord(catalog, dev, actor, { name: "Basic", prices: price("10") });
    const pro = await createPlanRecord(catalog, dev, actor, { name: "Pro", prices: price("30") });
    const company = companyName();
    const { subscription } = await subscriptionFixture(sql, dev, { company, planId: basic.id, now: new Date(t.clock.now() - 10 * 86_400_000) });

    const printed = ok("subscription", "change-plan", "--team", team, "--company", company, "--plan", pro.id, "--preview", "true").data;
    expect(printed).toMatchObject({
      kind: "upgrade",
      effective: "now",
      planId: pro.id,
      invoice: { lineItems: [{ kind: "proration" }, { kind: "proration" }] },
    });
    const { session } = await createDashboardSession(sql, { ...dev, userEmail: "ops@test.dev", roles: ["billing:read"] }, t.clock.now());
    const shown = await t.call("POST", `/dashboard/companies/${company}/plan/preview`, { token: session, body: { planId: pro.id } });
    // The same quote, computed a moment later: the lines' descriptions name the second, the amounts may move by one unit.
    expect(shown.body.data.invoice.lineItems.map((l: { kind: string }) => l.kind)).toEqual(["proration", "proration"]);
    expect(shown.body.data.planId).toBe(printed.planId);
    const after = (await sql`select plan_id, price_amount from subscriptions where id = ${subscription.id}`)[0]!;
    expect(after).toEqual({ plan_id: basic.id, price_amount: 10_000_000n });

    const bad = failed(2, "subscription", "change-plan", "--team", team, "--company", company, "--plan", pro.id, "--period", "weekly");
    expect(bad.details["body.billingPeriod"]).toBeDefined();
    const none = failed(1, "subscription", "change-plan", "--team", team, "--company", "nobody", "--plan", pro.id, "--preview", "true");
    expect(none.error).toContain("nobody");
  },
  SPAWNS_TIMEOUT,
);
