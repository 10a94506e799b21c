/** The operator CLI as an operator runs it: a subprocess, one JSON object out, errors on stderr. */
import { afterAll, expect, test } from "bun:test";
import { cloneTestDatabase } from "./helpers/db";
import { TEST_SECRETS } from "./helpers/app";

const db = await cloneTestDatabase();
afterAll(() => db.drop());

function cli(...args: string[]) {
  const p = Bun.spawnSync([process.execPath, "src/cli.ts", ...args], { env: { ...process.env, DATABASE_URL: db.url, ...TEST_SECRETS } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

test("seed prints a demo team with a key of each kind, a session and a catalog", () => {
  const r = cli("seed");
  expect(r.code).toBe(0);
  const seed = JSON.parse(r.out);
  expect(seed.team.id).toStartWith("team_");
  expect(seed.keys.secret.key).toStartWith("sk_test_");
  expect(seed.keys.restricted.key).toStartWith("rk_test_");
  expect(seed.keys.publishable.key).toStartWith("pk_test_");
  expect(seed.keys.legacy.key).toStartWith("api_");
  expect(seed.keys.productionSecret.key).toStartWith("sk_live_");
  expect(seed.dashboardSession.cookie).toStartWith("be_session=dsess_");
  expect(seed.features.apiCalls.id).toStartWith("cflag_");
  expect(seed.company.credits).toBe("500");
});

test("team, key, list, revoke: each prints one JSON object; the raw key only at creation", () => {
  const team = JSON.parse(cli("team", "create", "--name", "CLI team").out);
  const key = JSON.parse(cli("key", "create", "--team", team.id, "--kind", "restricted", "--permissions", "customers.read,tokens.create", "--environment", "production", "--name", "ci").out);
  expect(key).toMatchObject({ type: "RESTRICTED", environmentMode: "PRODUCTION", permissions: ["customers.read", "tokens.create"], prefix: key.key.slice(0, 16) });
  const listed = JSON.parse(cli("key", "list", "--team", team.id, "--environment", "production").out);
  expect(listed.keys).toHaveLength(1);
  expect(JSON.stringify(listed)).not.toContain(key.key);
  // Key commands act within one environment, development unless named, like every other command.
  expect(JSON.parse(cli("key", "list", "--team", team.id).out).keys).toHaveLength(0);
  expect(cli("key", "revoke", "--team", team.id, "--id", key.id).err).toContain(`No key ${key.id} in team ${team.id} (development)`);
  const revoked = JSON.parse(cli("key", "revoke", "--team", team.id, "--id", key.id, "--environment", "production").out);
  expect(revoked.revokedAt).not.toBeNull();
});

test("plan, feature, entitlement and credit grant", () => {
  const team = JSON.parse(cli("team", "create", "--name", "Catalog team").out);
  const plan = JSON.parse(cli("plan", "create", "--team", team.id, "--name", "Pro").out);
  const feature = JSON.parse(cli("feature", "create", "--team", team.id, "--name", "Exports", "--key", "exports", "--type", "event").out);
  const ent = JSON.parse(cli("entitlement", "set", "--team", team.id, "--plan", plan.id, "--feature", feature.id, "--kind", "quota", "--limit", "1000", "--period", "month").out);
  expect(ent).toMatchObject({ kind: "quota", limit_amount: "1000", period: "month" });
  const bad = cli("entitlement", "set", "--team", team.id, "--plan", plan.id, "--feature", feature.id, "--kind", "quota", "--limit", "1.5", "--period", "month");
  expect(bad.code).toBe(1);
  expect(bad.err).toContain("--limit must be a whole number");
});

test("errors go to stderr with a non-zero exit", () => {
  const unknownTeam = cli("key", "create", "--team", "team_nope", "--kind", "secret");
  expect(unknownTeam.code).toBe(1);
  expect(unknownTeam.out).toBe("");
  expect(unknownTeam.err).toContain("No team team_nope");
  const badKind = cli("key", "create", "--team", "team_nope", "--kind", "root");
  expect(badKind.code).toBe(1);
  expect(badKind.err).toContain("--kind must be");
  expect(cli("frobnicate", "now").code).toBe(1);
});
