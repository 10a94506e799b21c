/**
 * Forward-only migrations from `sql/migrations/NNNNN_name.sql`, applied in order and tracked in
 * `schema_migrations`. A session-level advisory lock serialises concurrent starts: the second instance
 * waits, then finds nothing left to apply. Pending files run in one transaction, so a failing
 * migration leaves the schema exactly as it was.
 */
import { Glob } from "bun";
import type { Sql } from "./client";

const MIGRATION_DIR = new URL("../../sql/migrations/", import.meta.url).pathname;
// Arbitrary constant shared by every instance of this service.
const MIGRATION_LOCK_KEY = 7_403_112_019n;

export interface MigrationResult {
  applied: string[];
  alreadyApplied: number;
}

export async function migrate(sql: Sql, dir = MIGRATION_DIR): Promise<MigrationResult> {
  const files: string[] = [];
  for await (const file of new Glob("*.sql").scan(dir)) files.push(file);
  files.sort();
  for (const file of files) {
    if (!/^\d{5}_[a-z0-9_]+\.sql$/.test(file)) throw new Error(`Migration file name must be NNNNN_name.sql: ${file}`);
  }

  return sql.begin(async (tx) => {
    // Transaction-scoped lock: released at commit, held while migrations run.
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY.toString()}::bigint)`;
    await tx`create table if not exists schema_migrations (
      version text primary key,
      applied_at timestamptz not null default now()
    )`;
    const done = new Set((await tx<{ version: string }[]>`select version from schema_migrations`).map((r) => r.version));
    const applied: string[] = [];
    for (const file of files) {
      const version = file.slice(0, -4);
      if (done.has(version)) continue;
      await tx.unsafe(await Bun.file(dir + file).text());
      await tx`insert into schema_migrations (version) values (${version})`;
      applied.push(version);
    }
    return { applied, alreadyApplied: done.size };
  }) as Promise<MigrationResult>;
}
