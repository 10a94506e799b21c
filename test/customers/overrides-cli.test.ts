/** `override set` and `override remove`: company-level entitlement overrides from the operator CLI. */
import { afterAll, expect, test } from "bun:test";
import { cloneTestDatabase } from "../helpers/db";
import { TEST_SECRETS } from "../helpers/app";

// Each test spawns several CLI processes, each a second or more on a busy machine.
const SPAWNS_TIMEOUT = 60_000;

const db = await cloneTestDatabase();
afterAll(() => db.drop());

function cli(...args: string[]) {
  const p = Bun.spawnSync([process.execPath, "src/cli.ts", ...args], { env: { ...process.env, DATABASE_URL: db.url, ...TEST_SECRETS } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

const seed = JSON.parse(cli("seed").out).data;
const team = seed.team.id as string;
const apiCalls = seed.features.apiCalls.id as string;

test(
  "seed's plan assignment sets the company's billing anchor",
  async () => {
    const [row] = await db.sql`select billing_anchor from companies where id = ${seed.company.id}`;
    expect(row!.billing_anchor).toBeInstanceOf(Date);
  },
  SPAWNS_TIMEOUT,
);

test(
  "override set upserts one override per company and feature, audited as the operator",
  async () => {
    const first = cli(
      "override",
      "set",
      "--team",
      team,
      "--company",
      "acme",
      "--feature",
      apiCalls,
      "--kind",
      "quota",
      "--limit",
      "5",
      "--period",
      "day",
    );
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out).data).toMatchObject({
      companyId: seed.company.id,
      featureId: apiCalls,
      kind: "quota",
      limit: "5",
      period: "day",
      creditsPerUse: null,
    });
    const second = JSON.parse(
      cli("override", "set", "--team", team, "--company", seed.company.id, "--feature", apiCalls, "--kind", "credit", "--credits-per-use", "3").out,
    ).data;
    expect(second).toMatchObject({ kind: "credit", creditsPerUse: "3", limit: null, period: null });
    const rows = await db.sql`select kind from company_overrides where team_id = ${team} and company_id = ${seed.company.id}`;
    expect([...rows]).toEqual([{ kind: "credit" }]);
    const audits =
      await db.sql`select actor_kind, actor_id, action from audit_log where team_id = ${team} and resource_type = 'company_override' order by seq`;
    expect([...audits]).toEqual([
      { actor_kind: "operator", actor_id: "cli", action: "override.set" },
      { actor_kind: "operator", actor_id: "cli", action: "override.set" },
    ]);
  },
  SPAWNS_TIMEOUT,
);

test(
  "override set refuses a kind that does not fit the feature type, an unknown company or feature",
  () => {
    const misfit = cli(
      "override",
      "set",
      "--team",
      team,
      "--company",
      "acme",
      "--feature",
      apiCalls,
      "--kind",
      "trait",
      "--trait-key",
      "seats",
      "--trait-operator",
      "lte",
      "--trait-value",
      "3",
    );
    expect(misfit.code).toBe(2);
    expect(misfit.err).toContain("needs a trait feature");
    expect(cli("override", "set", "--team", team, "--company", "nobody", "--feature", apiCalls, "--kind", "boolean").err).toContain(
      "No company nobody",
    );
    expect(cli("override", "set", "--team", team, "--company", "acme", "--feature", "cflag_nope", "--kind", "boolean").err).toContain(
      "No feature cflag_nope",
    );
    expect(cli("override", "set", "--team", team, "--company", "acme", "--feature", apiCalls, "--kind", "boolean", "--enabled", "yes").err).toContain(
      "--enabled must be one of: true, false",
    );
  },
  SPAWNS_TIMEOUT,
);

test(
  "override remove deletes it once; a second remove is an error",
  async () => {
    const removed = cli("override", "remove", "--team", team, "--company", "acme", "--feature", apiCalls);
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.out).data).toEqual({
      id: expect.stringMatching(/^ent_/),
      companyId: seed.company.id,
      featureId: apiCalls,
      kind: "credit",
    });
    expect([...(await db.sql`select id from company_overrides where team_id = ${team}`)]).toEqual([]);
    const again = cli("override", "remove", "--team", team, "--company", "acme", "--feature", apiCalls);
    expect(again.code).toBe(1);
    expect(again.err).toContain(`No override of feature ${apiCalls} for company acme`);
  },
  SPAWNS_TIMEOUT,
);

test(
  "overrides stay in their environment",
  () => {
    const prod = cli(
      "override",
      "set",
      "--team",
      team,
      "--company",
      "acme",
      "--feature",
      apiCalls,
      "--kind",
      "boolean",
      "--environment",
      "production",
    );
    expect(prod.code).toBe(1);
    expect(prod.err).toContain("No company acme");
  },
  SPAWNS_TIMEOUT,
);
