/**
 * The job queue's own schema (`graphile_worker`), installed and upgraded by graphile-worker's migrations,
 * right after ours (src/db/migrate.ts). Its migrations are graphile-worker's to write and run (each in a
 * transaction of its own, with their own record in `graphile_worker.migrations`), so they stay out of
 * sql/migrations; a second instance starting at the same time finds them done.
 */
import { Logger as GraphileLogger, runMigrations } from "graphile-worker";

/** Warnings and errors only, as plain text on stderr: the schema installer says nothing on success. */
const quietLogger = new GraphileLogger(() => (level, message) => {
  if (level === "error" || level === "warning") process.stderr.write(`graphile-worker ${level}: ${message}\n`);
});

/** Installs or upgrades the `graphile_worker` schema in the database at `connectionString`. */
export async function migrateJobQueue(connectionString: string, logger: GraphileLogger = quietLogger): Promise<void> {
  await runMigrations({ connectionString, logger, maxPoolSize: 1 });
}
