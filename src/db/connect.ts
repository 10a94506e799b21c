/** Opens the database the configuration names: DATABASE_URL, or the embedded PostgreSQL in DATA_DIR. */
import type { Config } from "../config";
import type { Logger } from "../lib/logger";
import { createSql, type Sql } from "./client";
import { embeddedUrl, startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded";

export interface Database {
  sql: Sql;
  url: string;
  close(): Promise<void>;
}

/** True when the embedded server of this data folder is already up (the service is running): the CLI then shares it. */
async function alreadyRunning(url: string): Promise<boolean> {
  const probe = createSql(url, { max: 1 });
  try {
    await probe`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await probe.end({ timeout: 1 });
  }
}

export async function connectDatabase(config: Config, logger: Logger): Promise<Database> {
  let url = config.databaseUrl;
  let embedded: EmbeddedDatabase | undefined;
  if (!url) {
    url = embeddedUrl(config.embeddedPgPort);
    if (!(await alreadyRunning(url))) {
      embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, (m) => logger.debug("embedded-postgres", { message: m }));
    }
  }
  const sql = createSql(url, { max: config.databasePoolSize });
  return {
    sql,
    url,
    async close() {
      await sql.end({ timeout: 5 });
      await embedded?.stop();
    },
  };
}
