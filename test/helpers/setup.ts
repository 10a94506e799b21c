/**
 * Preloaded once per `bun test` run (bunfig.toml). Starts the embedded PostgreSQL in `.data/test/pg`
 * (or uses TEST_DATABASE_URL), migrates a template database once, and leaves each test file to clone
 * it (see db.ts). Nothing here mocks the database: every test talks to a real PostgreSQL.
 * The server it started is stopped when the run ends, or is interrupted (README "Processes").
 */
import { afterAll } from "bun:test";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../src/db/embedded";
import { createSql } from "../../src/db/client";
import { migrateDatabase } from "../../src/db/migrate";

export const TEMPLATE_DB = "billing_test_template";
// TEST_PG_PORT lets two checkouts on one machine run their suites side by side.
export const TEST_PG_PORT = Number(process.env.TEST_PG_PORT ?? 54330);

let embedded: EmbeddedDatabase | undefined;

async function prepare(): Promise<string> {
  let serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    embedded = await startEmbeddedPostgres(`${process.cwd()}/.data/test`, TEST_PG_PORT, () => {});
    serverUrl = embedded.url;
  }
  const admin = createSql(serverUrl, { max: 1 });
  if (embedded) await skipDurability(admin);
  // Leftovers of earlier runs, then a fresh template with every migration applied.
  const stale = await admin<{ datname: string }[]>`select datname from pg_database where datname like 'billing_test_%'`;
  for (const { datname } of stale) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
  await admin.unsafe(`create database ${TEMPLATE_DB}`);
  const template = createSql(withDatabase(serverUrl, TEMPLATE_DB), { max: 1 });
  await migrateDatabase(template, withDatabase(serverUrl, TEMPLATE_DB));
  await template.end();
  await admin.end();
  return serverUrl;
}

/**
 * The embedded test server's data is thrown away, so it need not survive a power cut: no fsync, no full-page
 * writes, commits that do not wait for the WAL flush. Every commit and every DROP DATABASE gets cheaper; what a
 * transaction sees, and when, is unchanged (an asynchronous commit is visible at once). A server of your own
 * (TEST_DATABASE_URL) is left as it is.
 */
async function skipDurability(admin: ReturnType<typeof createSql>) {
  for (const setting of ["fsync", "full_page_writes", "synchronous_commit"]) await admin.unsafe(`alter system set ${setting} = off`);
  await admin`select pg_reload_conf()`;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function stopDatabase() {
  const db = embedded;
  embedded = undefined;
  await db?.stop();
}

/** A failed start ends the run at once with the reason (a rejected preload would leave `bun test` spinning). */
async function prepareOrExit(): Promise<string> {
  try {
    return await prepare();
  } catch (error) {
    await stopDatabase().catch(() => {});
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `Test database setup failed: ${reason}\n(The suite uses .data/test; TEST_DATABASE_URL points it at a server of your own.)\n`,
    );
    process.exit(1);
  }
}

const atRunEnd: (() => Promise<unknown>)[] = [];
/** Work the run must finish before the server stops (db.ts's drops still in progress). */
export function beforeServerStops(work: () => Promise<unknown>) {
  atRunEnd.push(work);
}

// A top-level afterAll in a preload runs once, after every file.
afterAll(async () => {
  try {
    for (const work of atRunEnd) await work();
  } finally {
    await stopDatabase();
  }
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => void stopDatabase().finally(() => process.exit(130)));
}

const g = globalThis as { __testServerUrl?: string };
g.__testServerUrl ??= await prepareOrExit();
export const TEST_SERVER_URL = g.__testServerUrl;
