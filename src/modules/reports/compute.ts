/**
 * The reports' time ranges, pure (docs/reports.md#ranges): UTC days (YYYY-MM-DD) or months (YYYY-MM), both ends
 * included, defaulting to the last 30 days or 12 months of the service's clock; bounded, so one request never
 * sums years of events. A date that is no calendar day, a range backwards or too long is a 400 naming the field.
 */
import { apiError } from "../../lib/errors";

const DAY_MS = 86_400_000;
export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 366;
export const DEFAULT_MONTHS = 12;
export const MAX_MONTHS = 36;
/** Nothing the service stores is older (and Date.UTC reads a two-digit year as 19xx). */
const FIRST_YEAR = 1970;

export interface Range {
  /** the first day or month, as the request names it */
  from: string;
  /** the last day or month, included */
  to: string;
  /** the first instant, and the first instant after the range: the queries' half-open [start, end) */
  start: Date;
  end: Date;
  /** every day or month of the range, in order (the charts' x axis: a day without usage is a zero, not a gap) */
  steps: string[];
}

const refuse = (field: "from" | "to", message: string) => apiError("validation_failed", "Invalid date range", { [`query.${field}`]: message });

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const monthName = (index: number) => `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;
const monthStart = (index: number) => new Date(Date.UTC(Math.floor(index / 12), index % 12, 1));

function parseDay(field: "from" | "to", text: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (!match || Number.isNaN(ms) || isoDay(ms) !== text) throw refuse(field, "Not a calendar day: expected YYYY-MM-DD, such as 2026-01-31");
  if (Number(match[1]) < FIRST_YEAR) throw refuse(field, `A day from ${FIRST_YEAR} on`);
  return ms;
}

function parseMonth(field: "from" | "to", text: string): number {
  const match = /^(\d{4})-(\d{2})$/.exec(text);
  const month = match ? Number(match[2]) : 0;
  if (!match || month < 1 || month > 12) throw refuse(field, "Not a month: expected YYYY-MM, such as 2026-01");
  if (Number(match[1]) < FIRST_YEAR) throw refuse(field, `A month from ${FIRST_YEAR} on`);
  return Number(match[1]) * 12 + month - 1;
}

/**
 * The last instant a range may reach: the instant after 9999-12-31 is in year 10000, which a date's ISO text (and
 * so the database) cannot carry; the range's exclusive end stops a millisecond short instead.
 */
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const endAt = (ms: number) => new Date(Math.min(ms, LAST_INSTANT));

/** The days from `from` to `to` (both included); `to` defaults to the clock's UTC day, `from` to 29 days before `to`. */
export function dayRange(now: number, from?: string, to?: string): Range {
  const last = to === undefined ? Date.UTC(...utcDay(now)) : parseDay("to", to);
  const first = from === undefined ? last - (DEFAULT_DAYS - 1) * DAY_MS : parseDay("from", from);
  if (first > last) throw refuse("from", `On or before the range's end (${isoDay(last)})`);
  const count = (last - first) / DAY_MS + 1;
  if (count > MAX_DAYS) throw refuse("from", `A range of at most ${MAX_DAYS} days; this one has ${count}`);
  const steps = Array.from({ length: count }, (_, i) => isoDay(first + i * DAY_MS));
  return { from: isoDay(first), to: isoDay(last), start: new Date(first), end: endAt(last + DAY_MS), steps };
}

/** The months from `from` to `to` (both included); `to` defaults to the clock's UTC month, `from` to 11 months before `to`. */
export function monthRange(now: number, from?: string, to?: string): Range {
  const clock = new Date(now);
  const last = to === undefined ? clock.getUTCFullYear() * 12 + clock.getUTCMonth() : parseMonth("to", to);
  const first = from === undefined ? last - (DEFAULT_MONTHS - 1) : parseMonth("from", from);
  if (first > last) throw refuse("from", `On or before the range's end (${monthName(last)})`);
  const count = last - first + 1;
  if (count > MAX_MONTHS) throw refuse("from", `A range of at most ${MAX_MONTHS} months; this one has ${count}`);
  const steps = Array.from({ length: count }, (_, i) => monthName(first + i));
  return { from: monthName(first), to: monthName(last), start: monthStart(first), end: endAt(monthStart(last + 1).getTime()), steps };
}

function utcDay(now: number): [number, number, number] {
  const d = new Date(now);
  return [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
}
