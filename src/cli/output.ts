/**
 * What the CLI prints. Results go to stdout in the API's envelopes; failures go to stderr as one line of
 * the API's error shapes ({error}, {error, code}, {error, details}), with an exit code a script can branch on.
 */
import postgres from "postgres";
import { ApiError, type ErrorBody } from "../lib/errors";
import { UsageError } from "./command";

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** bigint prints as an integer string (exact, and valid JSON); dates as ISO strings. */
export const toJson = (value: unknown, indent?: number) =>
  JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v instanceof Date ? v.toISOString() : v), indent);

/** One page of a paginated list, as the API's list routes answer it; printed as it is. */
export class ListPage<T = unknown> {
  readonly data: T[];
  readonly count: number;
  readonly nextCursor: string | null;
  constructor(page: { data: T[]; count: number; nextCursor: string | null }) {
    this.data = page.data;
    this.count = page.count;
    this.nextCursor = page.nextCursor;
  }
}

/**
 * One envelope for every command, as the API answers: a list is {data, count, nextCursor} (a whole list has a
 * null nextCursor; a ListPage keeps its own), anything else {data}.
 */
export const envelope = (result: unknown) =>
  result instanceof ListPage
    ? { data: result.data, count: result.count, nextCursor: result.nextCursor }
    : Array.isArray(result)
      ? { data: result, count: result.length, nextCursor: null }
      : { data: result };

/**
 * Exit 2 when the input was wrong (an argument, or a value a service refused with 400); 1 for any other
 * failure. A database error never shows PostgreSQL's own message: arguments are checked before they reach
 * SQL, so one reaching here is a defect, named by its SQLSTATE only.
 */
export function describeFailure(error: unknown): { body: ErrorBody; exitCode: number } {
  if (error instanceof UsageError) return { body: { error: error.message }, exitCode: EXIT.usage };
  if (error instanceof ApiError) return { body: error.body(), exitCode: error.status === 400 ? EXIT.usage : EXIT.failure };
  if (error instanceof postgres.PostgresError) return { body: { error: `Database error (SQLSTATE ${error.code})` }, exitCode: EXIT.failure };
  return { body: { error: error instanceof Error ? error.message : String(error) }, exitCode: EXIT.failure };
}
