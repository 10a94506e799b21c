/**
 * Process entry: configuration, database (embedded or DATABASE_URL), migrations, caches, meter and
 * rate limiter, job workers (JOBS_IN_PROCESS), HTTP server; and a graceful stop on SIGTERM/SIGINT: stop
 * accepting, let in-flight requests finish, stop the job runner (in-flight jobs finish or go back), settle queued usage, flush pending writes (lastUsedAt, logs), close the pool, stop
 * the embedded database. The same stop runs when our parent (`npm start`) goes away without telling us.
 * docs/operations/processes.md says what each way of stopping leaves behind (nothing).
 */
import { ConfigError, loadConfig, type Config } from "./config";
import { Logger } from "./lib/logger";
import { systemClock } from "./lib/clock";
import { connectDatabase, type Database } from "./db/connect";
import { migrateDatabase } from "./db/migrate";
import { startJobs } from "./tasks";
import { startAppDeps } from "./app-deps";
import { createApp, serverFetch } from "./app";
import { API_PREFIX } from "./auth/access";
import { bunBodyBackstop } from "./http/body-limit";
import { setPeerAddressLookup } from "./http/client-address";
import { EmbeddedStartError } from "./db/embedded";
import { watchParent } from "./lib/parent-watch";
import { isDriverWriteAfterClose } from "./db/unavailable";
import { loggedError } from "./http/logged-error";

const STOP_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;

async function serve(db: Database, config: Config, logger: Logger) {
  const migrations = await migrateDatabase(db.sql, db.url);
  logger.info("migrations", { applied: migrations.applied });
  const deps = await startAppDeps(db.sql, config, systemClock, logger);
  let jobs: Awaited<ReturnType<typeof startJobs>> | null = null;
  try {
    // Job workers and schedules in this process, unless `npm run worker` processes run them (docs/operations/jobs.md).
    if (config.jobsInProcess) jobs = await startJobs(deps, db.url);
    const handle = serverFetch(deps, createApp(deps));
    const server = Bun.serve({
      port: config.port,
      hostname: config.host,
      maxRequestBodySize: bunBodyBackstop(config.bodyLimitBytes),
      fetch: handle,
    });
    // The TCP peer, for the sign-in throttle (src/http/client-address.ts), looked up only when asked for.
    setPeerAddressLookup((request) => server.requestIP(request)?.address);
    return { deps, server, jobs };
  } catch (error) {
    await jobs?.stop().catch(() => {});
    await deps.stop().catch(() => {});
    throw error;
  }
}

async function main() {
  const config = await loadConfig();
  const logger = new Logger(config.logLevel);
  const db = await connectDatabase(config, logger);
  // A start that fails once the database runs (a migration, a taken PORT) must not leave the database behind.
  const { deps, server, jobs } = await serve(db, config, logger).catch(async (error) => {
    await db.close().catch(() => {});
    throw error;
  });
  logger.info("listening", {
    url: `http://localhost:${server.port}${API_PREFIX}`,
    database: config.databaseUrl ? "DATABASE_URL" : `embedded (${config.dataDir}/pg)`,
  });
  logger.flush();

  let stopping = false;
  const stop = async (signal: string, failed = false) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal });
    let code = failed ? 1 : 0;
    try {
      await server.stop(false); // stop accepting; wait for in-flight requests
      // stop taking jobs; running ones finish within JOB_SHUTDOWN_GRACE_MS or go back to the queue
      await jobs?.stop();
      await deps.stop(); // settle queued usage, final lastUsedAt flush
    } catch (error) {
      code = 1;
      logger.error("shutdown step failed", { error: error instanceof Error ? error.message : String(error) });
    } finally {
      // always release the pool and stop the embedded database
      await db.close().catch((error) => {
        code = 1;
        logger.error("stopping the database failed", { error: error instanceof Error ? error.message : String(error) });
      });
    }
    logger.info("stopped");
    logger.flush();
    process.exit(code);
  };
  // SIGHUP too: a closed terminal would otherwise kill us and leave the database (in its own session) running.
  for (const signal of STOP_SIGNALS) process.on(signal, () => void stop(signal));
  watchParent(() => void stop("parent exited"));
  // A crash is logged with what was still buffered (a pending asynchronous write dies with the process),
  // then stops like a signal would: drain, flush, close the pool, stop the embedded database; exit 1.
  // One exception: the database driver's write to a connection the server dropped (src/db/unavailable.ts),
  // which the installed patch prevents; should an install lack it, a database restart must not stop us.
  const crashed = (error: unknown) => {
    if (isDriverWriteAfterClose(error)) {
      logger.warn("database connection lost during a write; the pool reconnects", { error: loggedError(error) });
      return;
    }
    logger.error("uncaught error", { error: loggedError(error) });
    logger.flushSync();
    void stop("uncaught error", true);
  };
  process.on("uncaughtException", crashed);
  process.on("unhandledRejection", crashed);
  process.on("exit", () => logger.flushSync());
}

main().catch((error) => {
  const message =
    error instanceof ConfigError || error instanceof EmbeddedStartError
      ? error.message
      : `Failed to start: ${error instanceof Error ? error.stack : String(error)}`;
  process.stderr.write(message + "\n");
  process.exit(1);
});
