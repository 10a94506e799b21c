/**
 * Loads every `sql/queries/*.sql` once at boot. Each file holds one statement; its header comment names
 * the `$n` parameters and whether it returns one row, many or none. Statements run prepared with
 * parameters: no value is ever concatenated into SQL.
 */
import { Glob } from "bun";
import type { Sql, TransactionSql } from "./client";

const QUERY_DIR = new URL("../../sql/queries/", import.meta.url).pathname;

async function loadAll(dir: string): Promise<Readonly<Record<string, string>>> {
  const texts: Record<string, string> = {};
  for await (const file of new Glob("*.sql").scan(dir)) {
    texts[file.slice(0, -4)] = await Bun.file(dir + file).text();
  }
  return Object.freeze(texts);
}

// Read once, when the first module that needs a query is imported (that is, at boot).
const ALL = await loadAll(QUERY_DIR);

/**
 * The text of the named queries, for a repository module to keep at its top level. A missing file
 * throws while modules are imported, so the process fails at boot, never on a request.
 */
export function queries<const N extends string>(names: readonly N[]): Record<N, string> {
  const out = {} as Record<N, string>;
  for (const name of names) {
    const text = ALL[name];
    if (text === undefined) throw new Error(`Missing SQL query file sql/queries/${name}.sql`);
    out[name] = text;
  }
  return out;
}

export type Db = Sql | TransactionSql;
type Param = string | number | bigint | boolean | Date | null | Uint8Array | readonly string[] | Record<string, unknown>;

/** Runs a loaded statement prepared, with positional parameters. */
export function run<R = Record<string, unknown>>(db: Db, text: string, params: readonly Param[] = []): Promise<R[]> {
  return db.unsafe(text, params as never[], { prepare: true }) as unknown as Promise<R[]>;
}

/**
 * Runs a loaded statement without preparing it, so PostgreSQL plans it with the values every time. Only for a
 * statement whose best plan depends on a value (a search pattern: a rare string wants the trigram index, a
 * common one a newest-first scan that stops at the page): a prepared statement may settle on one generic plan
 * after its fifth run, whatever the values (bench/README.md "Invoices": the generic plan read all 100,000 rows,
 * 54-58 ms for a rare string the trigram index finds in 3.7-4.0 ms).
 */
export function runPlannedPerCall<R = Record<string, unknown>>(db: Db, text: string, params: readonly Param[] = []): Promise<R[]> {
  return db.unsafe(text, params as never[], { prepare: false }) as unknown as Promise<R[]>;
}

/** Runs a loaded statement that returns no rows; resolves to how many rows it affected. */
export async function runCount(db: Db, text: string, params: readonly Param[] = []): Promise<number> {
  return (await db.unsafe(text, params as never[], { prepare: true })).count;
}

/**
 * Runs a delete whose last parameter caps the rows it takes, again and again until one deletes fewer: a long
 * clean-up as short statements that never hold many locks. Resolves to how many rows went in all.
 */
export async function deleteInBatches(db: Db, text: string, params: readonly Param[], batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await runCount(db, text, [...params, batch]);
    total += deleted;
    if (deleted < batch) return total;
  }
}

export async function runOne<R = Record<string, unknown>>(db: Db, text: string, params: readonly Param[] = []): Promise<R | undefined> {
  const rows = await run<R>(db, text, params);
  return rows[0];
}
