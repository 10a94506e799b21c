/**
 * The catalog from the operator CLI (subprocesses, as an operator runs them): a plan with a monthly price,
 * a coupon and entitlements made with the CLI are what GET /check and metering enforce for a company on
 * the plan; a later CLI change reaches the running service through its change notice.
 */
import { expect, test } from "bun:test";
import { createTestApp, TEST_SECRETS } from "../helpers/app";

const SPAWNS_TIMEOUT = 90_000;
const t = await createTestApp();

function cli(...args: string[]) {
  const p = Bun.spawnSync([process.execPath, "src/cli.ts", ...args], { env: { ...process.env, DATABASE_URL: t.db.url, ...TEST_SECRETS } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}
function ok(...args: string[]) {
  const r = cli(...args);
  expect(r).toMatchObject({ code: 0, err: "" });
  return JSON.parse(r.out).data;
}

test(
  "plan create --price-monthly, coupon create, entitlement set by feature key: enforced by /check, /usage/consume and POST /events",
  async () => {
    const team = ok("team", "create", "--name", "CLI catalog");
    const legacy = ok("key", "create", "--team", team.id, "--kind", "legacy", "--name", "server").key as string;
    const plan = ok("plan", "create", "--team", team.id, "--name", "Pro", "--price-monthly", "29.00", "--currency", "USDC", "--trial-days", "7");
    expect(plan).toMatchObject({ kind: "plan", trialDays: 7, prices: [{ billingPeriod: "monthly", amount: "29.000000", currency: "USDC" }] });
    ok("feature", "create", "--team", team.id, "--name", "Exports", "--key", "exports", "--type", "event");
    ok("feature", "create", "--team", team.id, "--name", "SSO", "--key", "sso", "--type", "boolean");
    const ent = ok(
      "entitlement",
      "set",
      "--team",
      team.id,
      "--plan",
      plan.id,
      "--feature",
      "exports",
      "--kind",
      "quota",
      "--limit",
      "2",
      "--period",
      "month",
    );
    expect(ent).toMatchObject({ planId: plan.id, kind: "quota", limit: "2" });
    ok("entitlement", "set", "--team", team.id, "--plan", plan.id, "--feature", "sso", "--kind", "boolean");
    const coupon = ok(
      "coupon",
      "create",
      "--team",
      team.id,
      "--code",
      "PRO10",
      "--percent-off",
      "10",
      "--duration",
      "repeating",
      "--duration-periods",
      "3",
      "--plans",
      plan.id,
    );
    expect(coupon).toMatchObject({ code: "PRO10", percentOff: "10.00", duration: "repeating", durationPeriods: 3, planIds: [plan.id] });
    expect(ok("coupon", "list", "--team", team.id).map((c: { id: string }) => c.id)).toEqual([coupon.id]);
    expect(ok("plan", "price", "set", "--team", team.id, "--plan", plan.id, "--period", "yearly", "--amount", "290").prices).toEqual([
      { billingPeriod: "monthly", amount: "29.000000", currency: "USDC" },
      { billingPeriod: "yearly", amount: "290.000000", currency: "USDC" },
    ]);

    const identify = await t.call("POST", "/events", { token: legacy, body: { event_type: "identify", company: { id: "cli-co" } } });
    expect(identify.status).toBe(200);
    ok("company", "plan", "--team", team.id, "--company", "cli-co", "--plan", plan.id);

    const check = (feature: string) => t.call("GET", `/check?company=cli-co&feature=${feature}`, { token: legacy });
    expect((await check("exports")).body.data).toMatchObject({ access: true, limit: 2, used: 0 });
    expect((await check("sso")).body.data).toMatchObject({ access: true });
    expect((await t.call("POST", "/usage/consume", { token: legacy, body: { company: "cli-co", feature: "exports" } })).status).toBe(200);
    const track = () => t.call("POST", "/events", { token: legacy, body: { event_type: "track", name: "exports", company: { id: "cli-co" } } });
    expect((await track()).status).toBe(200);
    expect((await track()).body.code).toBe("limit_reached");

    // Take SSO off the plan from the CLI: the running service hears the change notice and answers accordingly.
    ok("entitlement", "remove", "--team", team.id, "--plan", plan.id, "--feature", "sso");
    let access = true;
    for (let i = 0; i < 100 && access; i++) {
      access = (await check("sso")).body.data.access;
      if (access) await Bun.sleep(20);
    }
    expect(access).toBe(false);

    // Archive the metered feature: it has history, so it stays (archived) and grants nothing.
    expect(ok("feature", "archive", "--team", team.id, "--feature", "exports")).toMatchObject({ featureKey: "exports", archived: true });
    expect(ok("feature", "list", "--team", team.id).map((f: { featureKey: string }) => f.featureKey)).toEqual(["sso"]);
    expect(ok("feature", "delete", "--team", team.id, "--feature", "sso")).toEqual({ id: expect.any(String), outcome: "deleted" });
    expect(ok("coupon", "archive", "--team", team.id, "--id", coupon.id)).toMatchObject({ archived: true });

    // The operator is the actor of every change.
    const actors = await t.db
      .sql`select distinct actor_kind from audit_log where team_id = ${team.id} and action like any (array['plan.%', 'coupon.%', 'feature.%', 'entitlement.%'])`;
    expect(actors.map((a) => a.actor_kind)).toEqual(["operator"]);
  },
  SPAWNS_TIMEOUT,
);

test(
  "bad amounts and unknown currencies: exit 2 with {error, details}, nothing written",
  () => {
    const team = ok("team", "create", "--name", "CLI bad input");
    for (const [amount, currency, field] of [
      ["1e3", "USDC", "prices[0].amount"],
      ["0.1234567", "USDC", "prices[0].amount"],
      ["-1", "USDC", "prices[0].amount"],
      ["5", "DOGE", "prices[0].currency"],
    ] as const) {
      const r = cli("plan", "create", "--team", team.id, "--name", "Bad", `--price-monthly=${amount}`, "--currency", currency);
      expect(r.code).toBe(2);
      expect(Object.keys(JSON.parse(r.err).details)).toEqual([field]);
    }
    const both = cli(
      "coupon",
      "create",
      "--team",
      team.id,
      "--code",
      "BOTH",
      "--percent-off",
      "5",
      "--amount-off",
      "5",
      "--currency",
      "USDC",
      "--duration",
      "once",
    );
    expect(both.code).toBe(2);
    expect(ok("plan", "list", "--team", team.id)).toEqual([]);
    expect(ok("coupon", "list", "--team", team.id)).toEqual([]);
  },
  SPAWNS_TIMEOUT,
);
