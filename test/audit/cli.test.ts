/** `audit verify` as an operator runs it: a subprocess printing {data}; exit 0 for a valid chain, 1 naming the first broken entry. */
import { afterAll, expect, test } from "bun:test";
import { cloneTestDatabase } from "../helpers/db";
import { TEST_SECRETS } from "../helpers/app";

const db = await cloneTestDatabase();
afterAll(() => db.drop());

function cli(...args: string[]) {
  const p = Bun.spawnSync([process.execPath, "src/cli.ts", ...args], { env: { ...process.env, DATABASE_URL: db.url, ...TEST_SECRETS } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

test("audit verify: the chain of a team's key changes verifies; after an entry is edited it exits 1 naming that entry", async () => {
  const team = JSON.parse(cli("team", "create", "--name", "Audited").out).data;
  for (const name of ["one", "two", "three"]) expect(cli("key", "create", "--team", team.id, "--kind", "secret", "--name", name).code).toBe(0);

  const good = cli("audit", "verify", "--team", team.id);
  expect(good).toMatchObject({ code: 0, err: "" });
  const [head] = await db.sql`select chain_seq, hash from audit_log where team_id = ${team.id} and environment = 'development'
      order by chain_seq desc limit 1`;
  expect(JSON.parse(good.out)).toEqual({ data: { ok: true, entries: 3, head: { chainSeq: 3, hash: head!.hash } } });
  // The other environment is another chain, empty here.
  expect(JSON.parse(cli("audit", "verify", "--team", team.id, "--environment", "production").out).data).toEqual({ ok: true, entries: 0, head: null });

  const [second] = await db.sql`update audit_log set details = details || '{"name": "forged"}'
      where team_id = ${team.id} and environment = 'development' and chain_seq = 2 returning id`;
  const bad = cli("audit", "verify", "--team", team.id, "--environment", "development");
  expect(bad.code).toBe(1);
  expect(JSON.parse(bad.out).data).toMatchObject({ ok: false, entries: 1, brokenAt: { id: second!.id, chainSeq: 2 }, reason: "hash_mismatch" });
}, 60_000);

test("audit verify without --team, or with a malformed --anchor, is a usage error (exit 2)", () => {
  const r = cli("audit", "verify");
  expect(r.code).toBe(2);
  expect(JSON.parse(r.err)).toEqual({ error: "--team is required" });
  for (const anchor of ["3", "x:" + "a".repeat(64), "3:" + "A".repeat(64), "0:" + "a".repeat(64)]) {
    const bad = cli("audit", "verify", "--team", "team_x", "--anchor", anchor);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.err).error).toContain("--anchor");
  }
});
