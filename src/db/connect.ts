/** Opens the database the configuration names: DATABASE_URL, or the embedded PostgreSQL in DATA_DIR. */
import type { Logger } from "../lib/logger";
import { createSql, type Sql } from "./client";
import { startEmbeddedPostgres } from "./embedded";

export interface Database {
  sql: Sql;
  url: string;
  close(): Promise<void>;
}

/** What opening the database needs from the configuration (src/config.ts), which db/ does not import. */
export interface DatabaseSettings {
  /** unset: start the embedded PostgreSQL in `dataDir` */
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number;
  databasePoolSize: number;
}

export async function connectDatabase(config: DatabaseSettings, logger: Logger): Promise<Database> {
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, (m) => logger.debug("embedded-postgres", { message: m }));
  const url = config.databaseUrl ?? embedded!.url;
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
