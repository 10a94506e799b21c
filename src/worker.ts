/**
 * `npm run worker`: a process that only runs jobs and schedules (src/tasks.ts), for scale-out next to
 * service processes (which may then set JOBS_IN_PROCESS=false). Same configuration as the service. Stops
 * like it on SIGTERM/SIGINT/SIGHUP: no new jobs, running ones finish within JOB_SHUTDOWN_GRACE_MS or go
 * back to the queue, then the pool and (if it started one) the embedded database close.
 */
import { ConfigError, loadConfig } from "./config";
import { Logger } from "./lib/logger";
import { systemClock } from "./lib/clock";
import { connectDatabase } from "./db/connect";
import { migrateDatabase } from "./db/migrate";
import { EmbeddedStartError } from "./db/embedded";
import { startAppDeps } from "./app-deps";
import { startJobs } from "./tasks";
import { watchParent } from "./lib/parent-watch";

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function main() {
  const config = await loadConfig();
  const logger = new Logger(config.logLevel);
  const db = await connectDatabase(config, logger);
  const started = await (async () => {
    await migrateDatabase(db.sql, db.url);
    const deps = await startAppDeps(db.sql, config, systemClock, logger);
    const jobs = await startJobs(deps, db.url).catch(async (error) => {
      await deps.stop().catch(() => {});
      throw error;
    });
    return { deps, jobs };
  })().catch(async (error) => {
    await db.close().catch(() => {});
    throw error;
  });
  logger.info("worker started", { runner: started.jobs.id, concurrency: config.jobConcurrency });
  logger.flush();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("worker stopping", { signal });
    let code = 0;
    for (const step of [() => started.jobs.stop(), () => started.deps.stop(), () => db.close()]) {
      await step().catch((error) => {
        code = 1;
        logger.error("shutdown step failed", { error: errorText(error) });
      });
    }
    logger.info("worker stopped");
    logger.flushSync();
    process.exit(code);
  };
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => void stop(signal));
  watchParent(() => void stop("parent exited"));
  // A runner that stops by itself (a fatal database error) ends the process: a supervisor restarts it.
  void started.jobs.done.then(() => void stop("runner stopped"));
  process.on("exit", () => logger.flushSync());
}

main().catch((error) => {
  const text =
    error instanceof ConfigError || error instanceof EmbeddedStartError
      ? error.message
      : `Failed to start: ${error instanceof Error ? error.stack : String(error)}`;
  process.stderr.write(text + "\n");
  process.exit(1);
});
