/**
 * The spec's pagination contract, shared by every paginated list:
 *   query  limit (1..200, default 50; over 200 is a 400, not silently clamped), cursor (opaque; "" is a 400)
 *   reply  {data, count, nextCursor}; nextCursor null at the end
 * Order is the table's `seq` (newest first), which never changes for a row, so pages are stable while
 * rows are added. The cursor is the last row's seq, signed and bound to the list, team and environment: a tampered,
 * truncated or foreign cursor is a 400. A list with filters names itself with them (filteredList), so a cursor of
 * one filter is a foreign cursor under another: it would page on through another set of rows.
 */
import { t, type TSchema } from "elysia";
import { sha256Hex, signPayload, verifyPayload } from "../lib/hash";
import { apiError } from "../lib/errors";
import type { Tenant } from "../lib/tenant";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/**
 * An integer query parameter. `x-field` names it in 400 details: Elysia validates coerced query numbers
 * one at a time and does not report which one failed.
 */
export function queryInteger(name: string, options: { minimum?: number; maximum?: number; default?: number; description?: string }) {
  return t.Integer({ ...options, "x-field": `query.${name}` });
}

/**
 * A count from 1 to 1,000,000 in the query of a hot read path, validated as its digits and left a
 * string for the handler to parse. An integer field makes Elysia decode the whole query through
 * TypeBox's value transform on every request (about 3 µs of a 30 µs GET /check); a pattern costs
 * nothing. A 400 names and explains it as queryInteger's do (`x-expected`).
 */
export function queryCount(description: string) {
  return t.String({
    pattern: "^0*(?:[1-9][0-9]{0,5}|1000000)$",
    description: `${description} An integer from 1 to 1000000.`,
    "x-expected": "Expected an integer from 1 to 1000000",
  });
}

export const PageQuery = {
  limit: t.Optional(
    queryInteger("limit", {
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: DEFAULT_PAGE_SIZE,
      description: "Page size, 1 to 200 (default 50). Over 200 is rejected with 400.",
    }),
  ),
  cursor: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 512,
      description: "Opaque: nextCursor of the previous page, unchanged. An empty string is rejected with 400.",
    }),
  ),
};

export const SearchQuery = {
  search: t.Optional(t.String({ maxLength: 200, description: "Case-insensitive match on name, email or wallet" })),
};

export function Page<S extends TSchema>(item: S) {
  return t.Object({
    data: t.Array(item),
    count: t.Integer({ description: "Items in this page" }),
    nextCursor: t.Union([t.String(), t.Null()], { description: "Pass as `cursor` for the next page; null at the end" }),
  });
}

/**
 * `list` bound to its filters (absent ones included), for pageRequest and pageResponse: the cursor carries a
 * hash of them, not the filters themselves (a search text may be 200 characters, and need not travel).
 */
export function filteredList(list: string, filters: Record<string, string | undefined>): string {
  const given = Object.keys(filters)
    .sort()
    .map((name) => [name, filters[name] ?? null]);
  return `${list}#${sha256Hex(JSON.stringify(given)).slice(0, 16)}`;
}

interface CursorPayload {
  l: string;
  t: string;
  e: string;
  s: string;
}

export interface PageRequest {
  /** rows with seq below this (null: from the newest) */
  beforeSeq: bigint | null;
  /** one more than the page size, to learn whether another page exists */
  fetch: number;
  limit: number;
  /** what pageResponse signs the next cursor with and binds it to: the list (with its filters) and the tenant */
  secret: string;
  list: string;
  tenant: Tenant;
}

/** The rows a list reads for one page: `fetch` of them, below `beforeSeq`. */
export type PageWindow = Pick<PageRequest, "beforeSeq" | "fetch">;

export function pageRequest(secret: string, list: string, tenant: Tenant, query: { limit?: number; cursor?: string }): PageRequest {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  let beforeSeq: bigint | null = null;
  if (query.cursor !== undefined) {
    const payload = verifyPayload<CursorPayload>(secret, "cursor", query.cursor);
    if (!payload || payload.l !== list || payload.t !== tenant.teamId || payload.e !== tenant.environment || !/^\d{1,19}$/.test(payload.s)) {
      throw apiError("validation_failed", "Invalid cursor", {
        "query.cursor": "Not a cursor of this list with these filters; pass nextCursor unchanged, with the same filters",
      });
    }
    beforeSeq = BigInt(payload.s);
  }
  return { beforeSeq, fetch: limit + 1, limit, secret, list, tenant };
}

/** The page of `rows` (fetched for `request`) presented, with the cursor of the next page bound as pageRequest's. */
export function pageResponse<R extends { seq: bigint }, O>(
  request: PageRequest,
  rows: R[],
  present: (row: R) => O,
): { data: O[]; count: number; nextCursor: string | null } {
  const { secret, list, tenant } = request;
  const more = rows.length > request.limit;
  const page = more ? rows.slice(0, request.limit) : rows;
  const last = page[page.length - 1];
  const nextCursor =
    more && last
      ? signPayload(secret, "cursor", { l: list, t: tenant.teamId, e: tenant.environment, s: last.seq.toString() } satisfies CursorPayload)
      : null;
  return { data: page.map(present), count: page.length, nextCursor };
}
