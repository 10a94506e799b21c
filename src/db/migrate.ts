/**
 * The schema, from two kinds of SQL file, applied at start (and by `npm run cli -- migrate`) in ONE
 * transaction under one advisory lock: a failure leaves the schema exactly as it was, and a second
 * instance starting at the same time waits, then finds nothing left to do.
 *
 * 1. `sql/migrations/NNNNN_name.sql`, forward-only: each applied once, in order, and recorded in
 *    `schema_migrations` with the SHA-256 of its text. A file edited after it was applied stops the start
 *    (a change to the schema is a new migration).
 * 2. `sql/functions/<name>.sql`, one database function per file and its only definition: applied, in
 *    file name order, after the pending migrations, whenever its text differs from the one last applied
 *    (recorded in `schema_functions`). So no migration may depend on a function from a file: on an empty
 *    database every migration runs before any function exists. A file may begin with `drop function if
 *    exists` of an old signature, for the changes `create or replace` refuses (parameters, return type).
 */
import { Glob } from "bun";
import type { Sql, TransactionSql } from "./client";
import { sha256Hex } from "../lib/hash";
import { migrateJobQueue } from "./job-schema";

const MIGRATION_DIR = new URL("../../sql/migrations/", import.meta.url).pathname;
const FUNCTION_DIR = new URL("../../sql/functions/", import.meta.url).pathname;
// Arbitrary constant shared by every instance of this service.
const MIGRATION_LOCK_KEY = 7_403_112_019n;

export interface MigrationResult {
  /** migrations applied by this run (file names without `.sql`) */
  applied: string[];
  alreadyApplied: number;
  /** function files (re)applied by this run, without `.sql` */
  functions: string[];
}

interface SqlFile {
  name: string;
  text: string;
  checksum: string;
}

async function readSqlFiles(dir: string, namePattern: RegExp, what: string): Promise<SqlFile[]> {
  const names: string[] = [];
  for await (const name of new Glob("*.sql").scan(dir)) names.push(name);
  names.sort();
  return Promise.all(
    names.map(async (name) => {
      if (!namePattern.test(name)) throw new Error(`${what} file name must be ${namePattern.source}: ${name}`);
      const text = await Bun.file(dir + name).text();
      return { name, text, checksum: sha256Hex(text) };
    }),
  );
}

/** Applies pending migrations and stops at an applied one whose file changed. Returns the versions applied. */
async function applyMigrations(tx: TransactionSql, files: SqlFile[]): Promise<{ applied: string[]; alreadyApplied: number }> {
  await tx`create table if not exists schema_migrations (
    version text primary key,
    applied_at timestamptz not null default now(),
    checksum text
  )`;
  // Tables created before checksums were recorded.
  await tx`alter table schema_migrations add column if not exists checksum text`;
  const rows = await tx<{ version: string; checksum: string | null }[]>`select version, checksum from schema_migrations`;
  const recorded = new Map(rows.map((r) => [r.version, r.checksum]));
  const applied: string[] = [];
  for (const file of files) {
    const version = file.name.slice(0, -4);
    if (!recorded.has(version)) {
      await tx.unsafe(file.text);
      await tx`insert into schema_migrations (version, checksum) values (${version}, ${file.checksum})`;
      applied.push(version);
      continue;
    }
    const checksum = recorded.get(version);
    if (checksum === null) {
      // Trust on first use: a migration applied before checksums existed gets its file's checksum now.
      // This run is the one moment an edit of an applied file is accepted (it is how the function bodies
      // restated in 00004..00010 moved to sql/functions); from now on any edit stops the start.
      await tx`update schema_migrations set checksum = ${file.checksum} where version = ${version}`;
    } else if (checksum !== file.checksum) {
      throw new Error(
        `Migration ${file.name} was edited after it was applied (checksum ${file.checksum} != ${checksum} applied); ` +
          "migrations are forward-only: add a new one",
      );
    }
  }
  return { applied, alreadyApplied: recorded.size };
}

/** (Re)applies the function files whose text changed since last applied. Returns their names. */
async function applyFunctions(tx: TransactionSql, files: SqlFile[]): Promise<string[]> {
  await tx`create table if not exists schema_functions (
    file text primary key,
    checksum text not null,
    applied_at timestamptz not null default now()
  )`;
  const rows = await tx<{ file: string; checksum: string }[]>`select file, checksum from schema_functions`;
  const recorded = new Map(rows.map((r) => [r.file, r.checksum]));
  const applied: string[] = [];
  for (const file of files) {
    if (recorded.get(file.name) === file.checksum) continue;
    await tx.unsafe(file.text);
    await tx`insert into schema_functions (file, checksum) values (${file.name}, ${file.checksum})
      on conflict (file) do update set checksum = excluded.checksum, applied_at = now()`;
    applied.push(file.name.slice(0, -4));
  }
  // A file removed from sql/functions leaves its function in the database: whether anything still calls it
  // is not for this runner to guess, so dropping it is a migration's job. Only the record goes, so that
  // a file brought back is applied again.
  const gone = [...recorded.keys()].filter((name) => !files.some((f) => f.name === name));
  if (gone.length) await tx`delete from schema_functions where file in ${tx(gone)}`;
  return applied;
}

export async function migrate(sql: Sql, migrationDir = MIGRATION_DIR, functionDir = FUNCTION_DIR): Promise<MigrationResult> {
  const migrations = await readSqlFiles(migrationDir, /^\d{5}_[a-z0-9_]+\.sql$/, "Migration");
  const functions = await readSqlFiles(functionDir, /^[a-z0-9_]+\.sql$/, "Function");
  return sql.begin(async (tx) => {
    // Transaction-scoped lock: released at commit, held while migrations run.
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY.toString()}::bigint)`;
    const { applied, alreadyApplied } = await applyMigrations(tx, migrations);
    return { applied, alreadyApplied, functions: await applyFunctions(tx, functions) };
  }) as Promise<MigrationResult>;
}

/**
 * Everything a database needs before the service or a worker uses it: our migrations and functions, then
 * the job queue's schema (src/db/job-schema.ts). `url` is the database `sql` connects to (graphile-worker
 * opens its own connection).
 */
export async function migrateDatabase(sql: Sql, url: string): Promise<MigrationResult> {
  const result = await migrate(sql);
  await migrateJobQueue(url);
  return result;
}
