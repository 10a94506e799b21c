/**
 * The suite's PostgreSQL: the embedded server in `.data/test/pg` on TEST_PG_PORT (or TEST_DATABASE_URL), and the
 * migrated template database every test file clones (db.ts). Used by the preload (setup.ts) of a plain `bun test`,
 * and by test/run.ts, which prepares it once for the `bun test` processes it starts side by side.
 */
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../src/db/embedded";
import { createSql } from "../../src/db/client";
import { migrateDatabase } from "../../src/db/migrate";

export const TEMPLATE_DB = "billing_test_template";
// TEST_PG_PORT lets two checkouts on one machine run their suites side by side.
export const TEST_PG_PORT = Number(process.env.TEST_PG_PORT ?? 54330);

export interface TestServer {
  url: string;
  /** Stops the embedded server this call started (nothing for TEST_DATABASE_URL). */
  stop(): Promise<void>;
}

/** Starts (or connects to) the server, drops the databases of earlier runs and builds a fresh template. */
export async function prepareTestServer(): Promise<TestServer> {
  let embedded: EmbeddedDatabase | undefined;
  let serverUrl = process.env.TEST_DATABASE_URL;
  const stop = async () => {
    const db = embedded;
    embedded = undefined;
    await db?.stop();
  };
  try {
    if (!serverUrl) {
      embedded = await startEmbeddedPostgres(`${process.cwd()}/.data/test`, TEST_PG_PORT, () => {});
      serverUrl = embedded.url;
    }
    let admin = createSql(serverUrl, { max: 1 });
    if (embedded) {
      await skipDurability(admin);
      // test/run.ts runs several `bun test` processes on this server, each with its pools, services and CLIs: more
      // than PostgreSQL's default 100 connections at a peak. The setting takes a restart, once per data folder.
      if (await raiseConnectionLimit(admin)) {
        await admin.end();
        await embedded.stop();
        embedded = await startEmbeddedPostgres(`${process.cwd()}/.data/test`, TEST_PG_PORT, () => {});
        admin = createSql(serverUrl, { max: 1 });
      }
    }
    // Leftovers of earlier runs, then a fresh template with every migration applied.
    const stale = await admin<{ datname: string }[]>`select datname from pg_database where datname like 'billing_test_%'`;
    for (const { datname } of stale) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    await admin.unsafe(`create database ${TEMPLATE_DB}`);
    const template = createSql(withDatabase(serverUrl, TEMPLATE_DB), { max: 1 });
    await migrateDatabase(template, withDatabase(serverUrl, TEMPLATE_DB));
    await template.end();
    await admin.end();
    return { url: serverUrl, stop };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
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

const MAX_CONNECTIONS = 400;

/** Sets the connection limit the runner's processes need; true when the server must restart to apply it. */
async function raiseConnectionLimit(admin: ReturnType<typeof createSql>): Promise<boolean> {
  const [row] = await admin<{ max_connections: string }[]>`show max_connections`;
  if (Number(row!.max_connections) >= MAX_CONNECTIONS) return false;
  await admin.unsafe(`alter system set max_connections = ${MAX_CONNECTIONS}`);
  return true;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A failed start, told the way the suite tells it (the reason and where the data lives). */
export function setupFailure(error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return `Test database setup failed: ${reason}\n(The suite uses .data/test; TEST_DATABASE_URL points it at a server of your own.)\n`;
}
