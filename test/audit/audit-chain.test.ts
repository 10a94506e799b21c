/**
 * The tamper-evident audit log (migration 00013, sql/functions/audit_log_link.sql, src/modules/audit/verify.ts):
 * entries link per tenant, concurrent writers still make one contiguous chain per tenant, and every kind of
 * tampering is named at the first entry it breaks. Also the upgrade: entries written before the migration
 * are backfilled into a valid chain that new entries continue.
 */
import { afterAll, expect, test } from "bun:test";
import { $ } from "bun";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createSql, type Sql } from "../../src/db/client";
import { migrate } from "../../src/db/migrate";
import { randomToken } from "../../src/lib/ids";
import type { Tenant } from "../../src/lib/tenant";
import { recordAudit } from "../../src/modules/audit/repo";
import { GENESIS_HASH, verifyAuditChain } from "../../src/modules/audit/verify";
import { createTeam } from "../../src/modules/teams/team";
import { cloneTestDatabase } from "../helpers/db";
import { TEST_SERVER_URL, withDatabase } from "../helpers/setup";

const db = await cloneTestDatabase();
const sql = db.sql;
const extraPools: Sql[] = [];
const extraDatabases: string[] = [];
afterAll(async () => {
  for (const pool of extraPools) await pool.end();
  const admin = createSql(TEST_SERVER_URL, { max: 1 });
  for (const name of extraDatabases) await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
  await db.drop();
}, 30_000);

const ACTOR = { kind: "secret", id: "key_test", requestId: "req_test" };

async function newTenant(environment: Tenant["environment"] = "development"): Promise<Tenant> {
  return { teamId: (await createTeam(sql, "Audit chain team")).id, environment };
}

async function write(db: Sql, tenant: Tenant, n: number, details: (i: number) => Record<string, unknown> = (i) => ({ i })) {
  for (let i = 0; i < n; i++)
    await db.begin((tx) =>
      recordAudit(tx, { ...tenant, actor: ACTOR, action: "thing.update", resourceType: "thing", resourceId: `thing_${i}`, details: details(i) }),
    );
}

interface ChainEntry {
  id: string;
  chain_seq: bigint;
  prev_hash: string;
  hash: string;
  seq: bigint;
}

const chainOf = (db: Sql, t: Tenant) =>
  db<ChainEntry[]>`select id, chain_seq, prev_hash, hash, seq from audit_log
    where team_id = ${t.teamId} and environment = ${t.environment} order by chain_seq`;

test("entries link: chain_seq 1, 2, 3..., each prev_hash is the hash before it, and verify reports the head", async () => {
  const t = await newTenant();
  await write(sql, t, 4, (i) => ({ i, nested: { b: [1, "two", null], a: true }, amount: "1.50" }));
  const chain = await chainOf(sql, t);
  expect(chain.map((e) => e.chain_seq)).toEqual([1n, 2n, 3n, 4n]);
  expect(chain[0]!.prev_hash).toBe(GENESIS_HASH);
  for (let i = 1; i < chain.length; i++) expect(chain[i]!.prev_hash).toBe(chain[i - 1]!.hash);
  for (const e of chain) expect(e.hash).toMatch(/^[0-9a-f]{64}$/);
  expect(new Set(chain.map((e) => e.hash)).size).toBe(4);
  expect(await verifyAuditChain(sql, t)).toEqual({ ok: true, entries: 4, head: { chainSeq: 4, hash: chain[3]!.hash } });
});

test("chains are per team and environment; an empty chain verifies with no head; supplied chain values are overwritten", async () => {
  const dev = await newTenant();
  const prod = { ...dev, environment: "production" as const };
  await write(sql, dev, 2);
  await sql`insert into audit_log (id, team_id, environment, actor_kind, actor_id, action, resource_type, resource_id, chain_seq, prev_hash, hash)
    values ('aud_forged', ${prod.teamId}, 'production', 'operator', 'cli', 'x', 'y', 'z', 99, 'forged', 'forged')`;
  const [forged] = await chainOf(sql, prod);
  expect(forged).toMatchObject({ id: "aud_forged", chain_seq: 1n, prev_hash: GENESIS_HASH });
  expect(forged!.hash).not.toBe("forged");
  expect(await verifyAuditChain(sql, dev)).toMatchObject({ ok: true, entries: 2 });
  expect(await verifyAuditChain(sql, prod)).toMatchObject({ ok: true, entries: 1 });
  expect(await verifyAuditChain(sql, await newTenant())).toEqual({ ok: true, entries: 0, head: null });
});

test("concurrent writers: 30 parallel transactions in one tenant and 30 in another (some rolled back) make one contiguous valid chain each", async () => {
  const a = await newTenant();
  const b = await newTenant();
  const wide = createSql(db.url, { max: 40 });
  extraPools.push(wide);
  const attempt = (t: Tenant, i: number) =>
    wide
      .begin(async (tx) => {
        await recordAudit(tx, { ...t, actor: ACTOR, action: "thing.update", resourceType: "thing", resourceId: `thing_${i}`, details: { i } });
        await tx`select pg_sleep(0.002)`; // hold the chain a little, as a real change would
        if (i % 7 === 3) throw new Error("rolled back");
      })
      .then(
        () => true,
        () => false,
      );
  const results = await Promise.all(Array.from({ length: 30 }, (_, i) => [attempt(a, i), attempt(b, i)]).flat());
  const committed = results.filter(Boolean).length / 2;
  expect(committed).toBe(30 - 4); // i = 3, 10, 17, 24 rolled back, in each tenant
  for (const t of [a, b]) {
    const chain = await chainOf(sql, t);
    expect(chain.map((e) => Number(e.chain_seq))).toEqual(Array.from({ length: committed }, (_, i) => i + 1));
    expect(await verifyAuditChain(sql, t)).toMatchObject({ ok: true, entries: committed });
  }
});

/** A fresh chain of `n` entries, and the verdict after `tamper` runs against its entries (in chain order). */
async function tampered(n: number, tamper: (chain: ChainEntry[]) => Promise<unknown>, pageSize?: number) {
  const t = await newTenant();
  await write(sql, t, n);
  const chain = await chainOf(sql, t);
  expect(await verifyAuditChain(sql, t, null, pageSize)).toMatchObject({ ok: true, entries: n });
  await tamper(chain);
  return { chain, verdict: await verifyAuditChain(sql, t, null, pageSize) };
}

test("an edited entry is named (details, actor, action, timestamp): hash_mismatch at that entry", async () => {
  const edits = [
    (id: string) => sql`update audit_log set details = '{"i": 999}' where id = ${id}`,
    (id: string) => sql`update audit_log set actor_id = 'key_someone_else' where id = ${id}`,
    (id: string) => sql`update audit_log set action = 'thing.delete' where id = ${id}`,
    (id: string) => sql`update audit_log set request_id = null where id = ${id}`,
    (id: string) => sql`update audit_log set created_at = created_at + interval '1 microsecond' where id = ${id}`,
  ];
  for (const edit of edits) {
    const { chain, verdict } = await tampered(5, (c) => edit(c[2]!.id));
    expect(verdict).toMatchObject({ ok: false, entries: 2, brokenAt: { id: chain[2]!.id, chainSeq: 3 }, reason: "hash_mismatch" });
  }
});

test("an edit whose hash is recomputed still breaks the next entry's link", async () => {
  const { chain, verdict } = await tampered(5, async (c) => {
    await sql`update audit_log set details = '{"i": 999}' where id = ${c[1]!.id}`;
    await sql`update audit_log a set hash = audit_entry_hash(a) where id = ${c[1]!.id}`;
  });
  expect(verdict).toMatchObject({ ok: false, brokenAt: { id: chain[2]!.id, chainSeq: 3 }, reason: "broken_link" });
});

test("a deleted entry is named by the entry after it (broken_link), also when it is the first, also across pages", async () => {
  const middle = await tampered(6, (c) => sql`delete from audit_log where id = ${c[3]!.id}`, 2);
  expect(middle.verdict).toMatchObject({ ok: false, entries: 3, brokenAt: { id: middle.chain[4]!.id, chainSeq: 5 }, reason: "broken_link" });
  const first = await tampered(3, (c) => sql`delete from audit_log where id = ${c[0]!.id}`);
  expect(first.verdict).toMatchObject({ ok: false, entries: 0, brokenAt: { id: first.chain[1]!.id, chainSeq: 2 }, reason: "broken_link" });
});

test("two entries swapped (their chain_seq exchanged) are named at the first of them", async () => {
  const { chain, verdict } = await tampered(4, async (c) => {
    await sql.begin(async (tx) => {
      await tx`update audit_log set chain_seq = -1 where id = ${c[1]!.id}`;
      await tx`update audit_log set chain_seq = 2 where id = ${c[2]!.id}`;
      await tx`update audit_log set chain_seq = 3 where id = ${c[1]!.id}`;
    });
  });
  expect(verdict).toMatchObject({ ok: false, entries: 1, brokenAt: { id: chain[2]!.id, chainSeq: 2 }, reason: "hash_mismatch" });
});

test("entries cut out and the rest re-hashed to link again: the skipped chain_seq is named (gap)", async () => {
  const { chain, verdict } = await tampered(5, async (c) => {
    await sql`delete from audit_log where id = ${c[2]!.id}`;
    // Re-link every later entry to the one before it, recomputing hashes in chain order.
    let prev = c[1]!.hash;
    for (const e of c.slice(3)) {
      await sql`update audit_log set prev_hash = ${prev} where id = ${e.id}`;
      const [row] = await sql<{ hash: string }[]>`update audit_log a set hash = audit_entry_hash(a) where id = ${e.id} returning hash`;
      prev = row!.hash;
    }
  });
  expect(verdict).toMatchObject({ ok: false, entries: 2, brokenAt: { id: chain[3]!.id, chainSeq: 4 }, reason: "gap" });
});

test("upgrade: entries written before migration 00013 are backfilled per tenant in seq order, and new entries continue the chain", async () => {
  const admin = createSql(TEST_SERVER_URL, { max: 1 });
  const name = `billing_test_${randomToken(10).toLowerCase()}`;
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  extraDatabases.push(name);
  const old = createSql(withDatabase(TEST_SERVER_URL, name), { max: 2 });
  extraPools.push(old);

  const root = await mkdtemp(`${tmpdir()}/billing-sql-`);
  const dirs = { migrations: `${root}/migrations/`, functions: `${root}/functions/` };
  await $`mkdir -p ${dirs.migrations} ${dirs.functions}`;
  for (const file of new Bun.Glob("*.sql").scanSync("sql/migrations")) if (file < "00013") await $`cp sql/migrations/${file} ${dirs.migrations}`;
  await $`cp sql/functions/meter_settle.sql ${dirs.functions}`;
  await migrate(old, dirs.migrations, dirs.functions);

  const a = { teamId: (await createTeam(old, "Before A")).id, environment: "development" as const };
  const b = { teamId: (await createTeam(old, "Before B")).id, environment: "development" as const };
  // Old code's insert (the columns of 00001), interleaved across two tenants.
  for (let i = 0; i < 3; i++)
    for (const t of [a, b])
      await old`insert into audit_log (id, team_id, environment, actor_kind, actor_id, action, resource_type, resource_id, details)
        values (${`aud_old_${t.teamId}_${i}`}, ${t.teamId}, 'development', 'operator', 'cli', 'thing.update', 'thing', 'thing_1', ${old.json({ i })})`;

  const result = await migrate(old);
  expect(result.applied).toContain("00013_audit_chain");
  for (const t of [a, b]) {
    const chain = await chainOf(old, t);
    expect(chain.map((e) => e.id)).toEqual([0, 1, 2].map((i) => `aud_old_${t.teamId}_${i}`));
    expect(chain.map((e) => e.chain_seq)).toEqual([1n, 2n, 3n]);
    expect(await verifyAuditChain(old, t)).toMatchObject({ ok: true, entries: 3 });
  }
  await write(old, a, 2);
  const verdict = await verifyAuditChain(old, a);
  expect(verdict).toMatchObject({ ok: true, entries: 5 });
  expect((await chainOf(old, a))[3]!.prev_hash).toBe((await chainOf(old, a))[2]!.hash);
});

test("a rewritten chain or deleted newest entries verify on their own; an anchor recorded earlier names them", async () => {
  const t = await newTenant();
  await write(sql, t, 5);
  const chain = await chainOf(sql, t);
  const anchor = { chainSeq: 3, hash: chain[2]!.hash };
  expect(await verifyAuditChain(sql, t, anchor)).toMatchObject({ ok: true, entries: 5 });

  // Whoever can write the table edits entry 2 and re-hashes everything after it.
  await sql`update audit_log set details = '{"i": 999}' where id = ${chain[1]!.id}`;
  let prev = chain[0]!.hash;
  for (const e of chain.slice(1)) {
    const [row] = await sql<{ hash: string }[]>`update audit_log a set prev_hash = ${prev} where id = ${e.id} returning hash`;
    const [rehashed] = await sql<{ hash: string }[]>`update audit_log a set hash = audit_entry_hash(a) where id = ${e.id} returning hash`;
    expect(rehashed!.hash).not.toBe(row!.hash);
    prev = rehashed!.hash;
  }
  expect(await verifyAuditChain(sql, t)).toMatchObject({ ok: true, entries: 5 });
  expect(await verifyAuditChain(sql, t, anchor)).toMatchObject({
    ok: false,
    entries: 2,
    brokenAt: { id: chain[2]!.id, chainSeq: 3 },
    reason: "anchor_mismatch",
  });

  const u = await newTenant();
  await write(sql, u, 5);
  const head = (await verifyAuditChain(sql, u)) as { head: { chainSeq: number; hash: string } };
  await sql`delete from audit_log where team_id = ${u.teamId} and environment = 'development' and chain_seq > 3`;
  expect(await verifyAuditChain(sql, u)).toMatchObject({ ok: true, entries: 3 });
  expect(await verifyAuditChain(sql, u, head.head)).toMatchObject({
    ok: false,
    entries: 3,
    brokenAt: { id: null, chainSeq: 5 },
    reason: "truncated",
  });
});
