/**
 * Migrations and function files: applied once, idempotent on re-run, safe when two instances start together;
 * function files re-applied exactly when they change; applied migrations guarded by checksums.
 */
import { afterAll, expect, test } from "bun:test";
import { $ } from "bun";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createSql, type Sql } from "../../src/db/client";
import { migrate } from "../../src/db/migrate";
import { sha256Hex } from "../../src/lib/hash";
import { randomToken } from "../../src/lib/ids";
import { TEST_SERVER_URL, withDatabase } from "../helpers/setup";

const admin = createSql(TEST_SERVER_URL, { max: 1 });
const pools: Sql[] = [];
const names: string[] = [];

/** An empty database of this file's own (dropped at the end), and a pool on it. */
async function emptyDatabase(max = 2): Promise<Sql> {
  const name = `billing_test_${randomToken(10).toLowerCase()}`;
  await admin.unsafe(`create database ${name}`);
  names.push(name);
  const sql = createSql(withDatabase(TEST_SERVER_URL, name), { max });
  pools.push(sql);
  return sql;
}

afterAll(async () => {
  for (const sql of pools) await sql.end();
  for (const name of names) await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}, 30_000); // dropping a database forces a checkpoint: about half a second each

/** A scratch copy of sql/migrations and sql/functions (or empty ones), for tests that edit files. */
async function scratchDirs(copy = true): Promise<{ migrations: string; functions: string }> {
  const root = await mkdtemp(`${tmpdir()}/billing-sql-`);
  const dirs = { migrations: `${root}/migrations/`, functions: `${root}/functions/` };
  await $`mkdir -p ${dirs.migrations} ${dirs.functions}`;
  if (copy) await $`cp sql/migrations/*.sql ${dirs.migrations} && cp sql/functions/*.sql ${dirs.functions}`;
  return dirs;
}

const sqlNames = (dir: string) => [...new Bun.Glob("*.sql").scanSync(dir)].map((f) => f.slice(0, -4)).sort();
const appendTo = async (path: string, text: string) => Bun.write(path, (await Bun.file(path).text()) + text);

/** What the migrations built: every column, index, constraint and function definition of the public schema. */
async function schemaDump(sql: Sql): Promise<Record<string, readonly unknown[]>> {
  return {
    columns: await sql`select table_name, column_name, data_type, is_nullable, column_default, collation_name
      from information_schema.columns where table_schema = 'public' order by table_name, column_name`,
    indexes: await sql`select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by tablename, indexname`,
    constraints: await sql`select conrelid::regclass::text as table_name, conname, pg_get_constraintdef(oid) as def
      from pg_constraint where connamespace = 'public'::regnamespace order by 1, 2`,
    functions: await sql`select proname, pg_get_functiondef(oid) as def, proconfig
      from pg_proc where pronamespace = 'public'::regnamespace order by proname`,
  };
}

const functionFiles = sqlNames("sql/functions");
// Functions a migration defines instead of a file, on purpose: audit_entry_hash is the format of stored
// audit hashes, which must never change once entries are hashed with it (migration 00013 says why).
// invoice_totals_check is the function of the constraint triggers migration 00018 creates, so it must exist
// when that migration runs (before any function file is applied on an empty database).
const MIGRATION_FUNCTIONS = ["audit_entry_hash", "invoice_totals_check"];
const migrationFiles = sqlNames("sql/migrations");

const a = await emptyDatabase();
const b = createSql(withDatabase(TEST_SERVER_URL, names[0]!), { max: 2 });
pools.push(b);

test("two instances migrating an empty database at once: each migration and function file is applied exactly once", async () => {
  const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
  expect([...ra.applied, ...rb.applied].sort()).toEqual(migrationFiles);
  expect([...ra.functions, ...rb.functions].sort()).toEqual(functionFiles);
  const rows = await a`select version, checksum from schema_migrations order by version`;
  expect(rows.map((r) => r.version)).toEqual(migrationFiles);
  for (const row of rows) expect(row.checksum).toBe(sha256Hex(await Bun.file(`sql/migrations/${row.version}.sql`).text()));
});

test("a fresh database has every function of sql/functions", async () => {
  expect(functionFiles).toContain("meter_settle");
  const rows = await a`select distinct proname from pg_proc where pronamespace = 'public'::regnamespace order by proname`;
  expect(rows.map((r) => r.proname)).toEqual([...functionFiles, ...MIGRATION_FUNCTIONS].sort());
});

test("running the migrations again changes nothing, and re-applies no unchanged function", async () => {
  const before = JSON.stringify(await schemaDump(a));
  const [fnBefore] = await a`select xmin::text from pg_proc where proname = 'meter_settle'`;
  const again = await migrate(a);
  expect(again).toEqual({ applied: [], alreadyApplied: migrationFiles.length, functions: [] });
  expect(JSON.stringify(await schemaDump(a))).toBe(before);
  // A `create or replace` rewrites the pg_proc row, even with the same text: its xmin would change.
  const [fnAfter] = await a`select xmin::text from pg_proc where proname = 'meter_settle'`;
  expect(fnAfter!.xmin).toBe(fnBefore!.xmin);
});

test("meter_settle keeps its planner settings, and event ids compare bytewise (00007)", async () => {
  // A `create or replace` of the function silently drops SET clauses it does not state: this catches that.
  const [fn] = await a`select proconfig from pg_proc where proname = 'meter_settle'`;
  expect([...fn!.proconfig].sort()).toEqual([
    "enable_hashjoin=off",
    "enable_mergejoin=off",
    "enable_seqscan=off",
    "plan_cache_mode=force_generic_plan",
  ]);
  const [id] = await a`select collation_name from information_schema.columns where table_name = 'events' and column_name = 'id'`;
  expect(id!.collation_name).toBe("C");
});

test("an edited function file is applied again on the next migrate, and only that one", async () => {
  const dirs = await scratchDirs();
  const sql = await emptyDatabase();
  await migrate(sql, dirs.migrations, dirs.functions);
  const file = `${dirs.functions}meter_settle.sql`;
  await Bun.write(file, (await Bun.file(file).text()).replace("  n int := cardinality(p_id);", "  n int := cardinality(p_id); -- edited"));
  const result = await migrate(sql, dirs.migrations, dirs.functions);
  expect(result).toEqual({ applied: [], alreadyApplied: migrationFiles.length, functions: ["meter_settle"] });
  const [fn] = await sql`select prosrc from pg_proc where proname = 'meter_settle'`;
  expect(fn!.prosrc).toContain("-- edited");
  const [row] = await sql`select checksum from schema_functions where file = 'meter_settle.sql'`;
  expect(row!.checksum).toBe(sha256Hex(await Bun.file(file).text()));
  expect((await migrate(sql, dirs.migrations, dirs.functions)).functions).toEqual([]);
});

test("a function file removed from sql/functions leaves its function in place and is applied again if it comes back", async () => {
  const dirs = await scratchDirs();
  const sql = await emptyDatabase();
  await migrate(sql, dirs.migrations, dirs.functions);
  const text = await Bun.file(`${dirs.functions}meter_settle.sql`).text();
  await $`rm ${dirs.functions}meter_settle.sql`;
  expect((await migrate(sql, dirs.migrations, dirs.functions)).functions).toEqual([]);
  expect(await sql`select 1 from pg_proc where proname = 'meter_settle'`).toHaveLength(1);
  expect(await sql`select 1 from schema_functions where file = 'meter_settle.sql'`).toHaveLength(0);
  await Bun.write(`${dirs.functions}meter_settle.sql`, text);
  expect((await migrate(sql, dirs.migrations, dirs.functions)).functions).toEqual(["meter_settle"]);
});

test("an applied migration whose file was edited stops the migration, naming the file, and changes nothing", async () => {
  const dirs = await scratchDirs();
  const sql = await emptyDatabase();
  await migrate(sql, dirs.migrations, dirs.functions);
  await appendTo(`${dirs.migrations}00008_payments_one_per_transaction.sql`, "\n-- an afterthought\n");
  await Bun.write(`${dirs.migrations}00099_later.sql`, "create table later (id int);\n");
  await expect(migrate(sql, dirs.migrations, dirs.functions)).rejects.toThrow(
    /^Migration 00008_payments_one_per_transaction\.sql was edited after it was applied \(checksum [0-9a-f]{64} != [0-9a-f]{64} applied\); migrations are forward-only: add a new one$/,
  );
  expect(await sql`select 1 from pg_tables where tablename = 'later'`).toHaveLength(0);
});

test("first run with checksums: applied migrations without one take their file's (trust on first use), then edits stop", async () => {
  const dirs = await scratchDirs();
  const sql = await emptyDatabase();
  await migrate(sql, dirs.migrations, dirs.functions);
  await sql`update schema_migrations set checksum = null`;
  const file = `${dirs.migrations}00004_meter_settle.sql`;
  await appendTo(file, "\n-- edited before the first run with checksums\n");
  expect((await migrate(sql, dirs.migrations, dirs.functions)).applied).toEqual([]);
  const [row] = await sql`select checksum from schema_migrations where version = '00004_meter_settle'`;
  expect(row!.checksum).toBe(sha256Hex(await Bun.file(file).text()));
  expect(await sql`select 1 from schema_migrations where checksum is null`).toHaveLength(0);
  await appendTo(file, "-- edited again\n");
  await expect(migrate(sql, dirs.migrations, dirs.functions)).rejects.toThrow("Migration 00004_meter_settle.sql was edited after it was applied");
});

/** sql/migrations and the migration runner as they were before function files existed (commit 1f203df). */
async function originalLayout(): Promise<{ migrations: string; runner: string; added: string[] }> {
  const dirs = await scratchDirs(false);
  const files = (await $`git ls-tree --name-only 1f203df sql/migrations/`.text()).trim().split("\n");
  for (const path of files) await Bun.write(`${dirs.migrations}${path.split("/").pop()}`, await $`git show 1f203df:${path}`.text());
  const runner = `${dirs.functions}../migrate-1f203df.ts`;
  await Bun.write(runner, await $`git show 1f203df:src/db/migrate.ts`.text());
  // Migrations written since 1f203df belong to neither layout: they apply on top of either.
  const added = migrationFiles.filter((version) => !files.includes(`sql/migrations/${version}.sql`));
  return { migrations: dirs.migrations, runner, added };
}

/** Copies the migrations written since 1f203df into `dir`, beside its original files. */
async function addLaterMigrations(dir: string, added: string[]) {
  for (const version of added) await Bun.write(`${dir}${version}.sql`, Bun.file(`sql/migrations/${version}.sql`));
}

test("the new layout builds the schema the original migrations built, and upgrades a database they built", async () => {
  const original = await originalLayout();
  // A deployment of 1f203df (its runner, no checksum column), upgraded to this layout below.
  const deployed = await emptyDatabase();
  const { migrate: oldMigrate } = (await import(original.runner)) as { migrate: (sql: Sql, dir: string) => Promise<unknown> };
  await oldMigrate(deployed, original.migrations);

  // The original files with today's runner and today's function files: every restated body applied in
  // turn, then replaced by the function file (which has changed since: its int8 overflows were fixed).
  await addLaterMigrations(original.migrations, original.added);
  const fromOriginal = await emptyDatabase();
  await migrate(fromOriginal, original.migrations);
  const fromNew = await emptyDatabase();
  await migrate(fromNew, undefined, undefined);
  const expected = await schemaDump(fromOriginal);
  expect(expected.functions).toHaveLength(functionFiles.length + MIGRATION_FUNCTIONS.length);
  expect(await schemaDump(fromNew)).toEqual(expected);

  const upgrade = await migrate(deployed);
  expect(upgrade).toEqual({ applied: original.added, alreadyApplied: migrationFiles.length - original.added.length, functions: functionFiles });
  expect(await schemaDump(deployed)).toEqual(expected);
  expect(await deployed`select 1 from schema_migrations where checksum is null`).toHaveLength(0);
});
