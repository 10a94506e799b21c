/** The health check's one statement: does the database answer. */
import type { Sql } from "../../db/client";

export async function pingDatabase(sql: Sql): Promise<void> {
  await sql`select 1`;
}
