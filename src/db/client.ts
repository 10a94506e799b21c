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
    // Seconds before a closed connection is opened again. postgres.js's default grows with every failed
    // attempt of the whole pool (3^n / 100, up to 20 s) and only resets on a success, so a database down for
    // two seconds under load left requests queued for 10-20 s after it was back. A short, capped wait: a
    // restart is met within a second, and ten connections retrying each second cost the server nothing.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
  }) as unknown as Sql;
}
