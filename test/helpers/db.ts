/** A database of its own for each test file, cloned from the migrated template in milliseconds. Call from a file's top level. */
import { createSql, type Sql } from "../../src/db/client";
import { randomToken } from "../../src/lib/ids";
import { TEMPLATE_DB, TEST_SERVER_URL, withDatabase } from "./setup";

export interface TestDatabase {
  sql: Sql;
  url: string;
  name: string;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

export async function cloneTestDatabase(): Promise<TestDatabase> {
  const name = `billing_test_${randomToken(10).toLowerCase()}`;
  const admin = createSql(TEST_SERVER_URL, { max: 1 });
  await admin.unsafe(`create database ${name} template ${TEMPLATE_DB}`);
  await admin.end();
  const url = withDatabase(TEST_SERVER_URL, name);
  const sql = createSql(url, { max: 10 });
  async function drop() {
    await sql.end({ timeout: 5 });
    const admin = createSql(TEST_SERVER_URL, { max: 1 });
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
  return { sql, url, name, drop };
}
