/** The operator CLI as an operator runs it: a subprocess, one JSON document out in the API's shapes, errors on stderr. */
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

/** The `data` of a successful command. */
function ok(...args: string[]) {
  const r = cli(...args);
  expect(r).toMatchObject({ code: 0, err: "" });
  return JSON.parse(r.out).data;
}

/** Every object key in a JSON document, at any depth, except under `traits` (the integrator's own names). */
function keysOf(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, into));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) into.push(k), k !== "traits" && keysOf(v, into);
  return into;
}

test(
  "seed prints a demo team with a key of each kind, a session and a catalog, in the API's camelCase records",
  () => {
    const r = cli("seed");
    expect(r.code).toBe(0);
    const seed = JSON.parse(r.out).data;
    expect(seed.team.id).toStartWith("team_");
    expect(seed.keys.secret.key).toStartWith("sk_test_");
    expect(seed.keys.restricted.key).toStartWith("rk_test_");
    expect(seed.keys.publishable.key).toStartWith("pk_test_");
    expect(seed.keys.legacy.key).toStartWith("api_");
    expect(seed.keys.productionSecret.key).toStartWith("sk_live_");
    expect(seed.dashboardSession.cookie).toStartWith("__Host-be_session=dsess_");
    expect(seed.features.apiCalls).toMatchObject({ featureKey: "api-calls", featureType: "event", eventKey: "api.call" });
    expect(seed.features.apiCalls.id).toStartWith("cflag_");
    expect(seed.features.apiCalls.linkedPlans.map((p: { name: string }) => p.name)).toEqual(["Free", "Pro"]);
    expect(seed.plans.pro).toMatchObject({ name: "Pro", tier: "pro" });
    expect(seed.company).toMatchObject({ externalId: "acme", activePlanId: seed.plans.pro.id, creditBalance: "500" });
    expect(keysOf(seed).filter((k) => k.includes("_"))).toEqual([]);
  },
  SPAWNS_TIMEOUT,
);

test(
  "team, key, list, revoke: each prints {data}; a list prints {data, count, nextCursor}; the raw key only at creation",
  () => {
    const team = ok("team", "create", "--name", "CLI team");
    const key = ok(
      "key",
      "create",
      "--team",
      team.id,
      "--kind",
      "restricted",
      "--permissions",
      "customers.read,tokens.create",
      "--environment",
      "production",
      "--name",
      "ci",
    );
    expect(key).toMatchObject({
      type: "RESTRICTED",
      environmentMode: "PRODUCTION",
      permissions: ["customers.read", "tokens.create"],
      prefix: key.key.slice(0, 16),
    });
    const listed = cli("key", "list", "--team", team.id, "--environment", "production");
    expect(JSON.parse(listed.out)).toMatchObject({ data: [{ id: key.id }], count: 1, nextCursor: null });
    expect(listed.out).not.toContain(key.key);
    // Key commands act within one environment, development unless named, like every other command.
    expect(ok("key", "list", "--team", team.id)).toEqual([]);
    expect(cli("key", "revoke", "--team", team.id, "--id", key.id).err).toContain(`No key ${key.id} in team ${team.id} (development)`);
    const revoked = ok("key", "revoke", "--team", team.id, "--id", key.id, "--environment", "production");
    expect(revoked.revokedAt).not.toBeNull();
  },
  SPAWNS_TIMEOUT,
);

test(
  "plan, feature, entitlement and credit grant print camelCase records with bigint quantities as strings",
  () => {
    const team = ok("team", "create", "--name", "Catalog team");
    const plan = ok("plan", "create", "--team", team.id, "--name", "Pro");
    expect(plan).toMatchObject({
      id: plan.id,
      kind: "plan",
      name: "Pro",
      tier: "standard",
      description: null,
      trialDays: 0,
      prices: [],
      archived: false,
    });
    const feature = ok("feature", "create", "--team", team.id, "--name", "Exports", "--key", "exports", "--type", "event");
    expect(feature).toMatchObject({ featureKey: "exports", featureType: "event", eventKey: "", linkedPlans: [] });
    const ent = ok(
      "entitlement",
      "set",
      "--team",
      team.id,
      "--plan",
      plan.id,
      "--feature",
      feature.id,
      "--kind",
      "quota",
      "--limit",
      "1000",
      "--period",
      "month",
    );
    expect(ent).toEqual({
      id: ent.id,
      planId: plan.id,
      featureId: feature.id,
      kind: "quota",
      enabled: true,
      limit: "1000",
      period: "month",
      creditsPerUse: null,
      traitKey: null,
      traitOperator: null,
      traitValue: null,
    });
    const bad = cli(
      "entitlement",
      "set",
      "--team",
      team.id,
      "--plan",
      plan.id,
      "--feature",
      feature.id,
      "--kind",
      "quota",
      "--limit",
      "1.5",
      "--period",
      "month",
    );
    expect(bad).toMatchObject({ code: 2, out: "" });
    expect(JSON.parse(bad.err)).toEqual({ error: "--limit must be a whole number" });
  },
  SPAWNS_TIMEOUT,
);

test(
  "credit grant: a company's grant in camelCase; an amount past bigint's range is refused before SQL, not with PostgreSQL's message",
  async () => {
    const seed = ok("seed");
    const grant = ok("credit", "grant", "--team", seed.team.id, "--company", "acme", "--amount", "9223372036854775807", "--reason", "max");
    expect(grant).toMatchObject({
      companyId: seed.company.id,
      amount: "9223372036854775807",
      remaining: "9223372036854775807",
      reason: "max",
      expiresAt: null,
    });
    const over = cli("credit", "grant", "--team", seed.team.id, "--company", "acme", "--amount", "9223372036854775808");
    expect(over).toMatchObject({ code: 2, out: "" });
    expect(JSON.parse(over.err)).toEqual({ error: "--amount must be between 1 and 9223372036854775807" });
    const [row] = await db.sql`select count(*)::int as n from credit_grants where team_id = ${seed.team.id}`;
    expect(row!.n).toBe(2);
  },
  SPAWNS_TIMEOUT,
);

test(
  "errors: one JSON line on stderr in the API's shapes; exit 1 for a failure, 2 for bad input",
  () => {
    const unknownTeam = cli("key", "create", "--team", "team_nope", "--kind", "secret");
    expect(unknownTeam).toMatchObject({ code: 1, out: "", err: '{"error":"No team team_nope"}\n' });
    const badKind = cli("key", "create", "--team", "team_nope", "--kind", "root");
    expect(badKind.code).toBe(2);
    expect(JSON.parse(badKind.err).error).toContain("--kind must be one of: secret, restricted, publishable, legacy");
    // A service's 400 keeps its details, as the API would answer.
    const team = ok("team", "create", "--name", "Errors team");
    const noPermissions = cli("key", "create", "--team", team.id, "--kind", "restricted");
    expect(noPermissions.code).toBe(2);
    expect(JSON.parse(noPermissions.err)).toEqual({ error: "Restricted keys need permissions", details: { permissions: "At least one permission" } });
    for (const args of [
      ["frobnicate", "now"],
      ["team", "create"],
      ["team", "create", "--name", "x", "--bogus", "1"],
      ["team", "create", "--name", "x", "extra"],
    ]) {
      const r = cli(...args);
      expect(r).toMatchObject({ code: 2, out: "" });
      expect(r.err.trimEnd().split("\n")).toHaveLength(1);
      expect(Object.keys(JSON.parse(r.err))).toEqual(["error"]);
    }
    expect(JSON.parse(cli("team", "create").err).error).toBe("--name is required");
  },
  SPAWNS_TIMEOUT,
);
