/**
 * The postgres.js client. int8 columns come back as bigint and numeric as exact decimal strings,
 * so no money or counter ever passes through a float.
 */
import postgres from "postgres";

export type Sql = postgres.Sql<{ bigint: bigint }>;
export type TransactionSql = postgres.TransactionSql<{ bigint: bigint }>;

export function createSql(url: string, options: { max?: number; onnotice?: (n: unknown) => void } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    types: { bigint: postgres.BigInt },
    // numeric (oid 1700) is left as its text form by postgres.js: exact.
    onnotice: options.onnotice ?? (() => {}),
    connection: { application_name: "billing-entitlements" },
    idle_timeout: 60,
  }) as unknown as Sql;
}
