/**
 * Billing periods on the calendar, in UTC. A subscription's periods are computed from its anchor (the
 * instant it started), never chained from the previous period's end: with a Jan 31 anchor the periods
 * start Feb 28 (29 in a leap year), Mar 31, Apr 30, ... Chaining would drift to the 28th for good after
 * the first short month. The day is clamped to the month's last day; the time of day is kept.
 * Instants are epoch milliseconds, as `Clock.now()` returns them; "now" is always passed in.
 */

export type Interval = "monthly" | "yearly";

/** One day in milliseconds (a trial's days, retention windows): the one place this is stated. */
export const DAY_MS = 86_400_000;

export interface Period {
  /** Periods since the anchor: 0 is the one starting at the anchor; negative before it. */
  index: number;
  /** Inclusive start and exclusive end, epoch milliseconds. */
  start: number;
  end: number;
}

/** Calendar months in one period of each interval: the one place this is stated (BigInt(MONTHS[i]) for money). */
export const MONTHS: Readonly<Record<Interval, number>> = { monthly: 1, yearly: 12 };

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysInMonth = (year: number, month: number) => (month === 1 && isLeap(year) ? 29 : DAYS[month]!);

/** The anchor moved by `months` calendar months (negative moves back), its day clamped to the month's length. */
export function addMonths(anchor: number, months: number): number {
  if (!Number.isInteger(months)) throw new RangeError("months must be a whole number");
  const a = new Date(anchor);
  const target = a.getUTCMonth() + months;
  const year = a.getUTCFullYear() + Math.floor(target / 12);
  const month = ((target % 12) + 12) % 12;
  // setUTCFullYear sets year, month and day at once and keeps the time of day (Date.UTC would read 0-99 as 19xx).
  return a.setUTCFullYear(year, month, Math.min(a.getUTCDate(), daysInMonth(year, month)));
}

export const addYears = (anchor: number, years: number): number => addMonths(anchor, years * 12);

/** The start of period `index` of a subscription anchored at `anchor`. */
export const periodStart = (anchor: number, interval: Interval, index: number): number => addMonths(anchor, index * MONTHS[interval]);

export const periodAt = (anchor: number, interval: Interval, index: number): Period => ({
  index,
  start: periodStart(anchor, interval, index),
  end: periodStart(anchor, interval, index + 1),
});

/** The period that contains `now` (start <= now < end). */
export function periodContaining(anchor: number, interval: Interval, now: number): Period {
  const a = new Date(anchor);
  const n = new Date(now);
  const monthsApart = (n.getUTCFullYear() - a.getUTCFullYear()) * 12 + (n.getUTCMonth() - a.getUTCMonth());
  // A first guess from the calendar months apart, off by at most one period because of day clamping.
  let index = Math.floor(monthsApart / MONTHS[interval]);
  while (periodStart(anchor, interval, index) > now) index--;
  while (periodStart(anchor, interval, index + 1) <= now) index++;
  return periodAt(anchor, interval, index);
}

/** Whole seconds in a period (periods are whole days in UTC, so this is exact). */
export const periodSeconds = (period: Period): number => (period.end - period.start) / 1000;

/** Whole seconds left in the period at `now` (a partial second is not left), from 0 to periodSeconds. */
export function secondsRemaining(period: Period, now: number): number {
  const left = Math.floor((period.end - now) / 1000);
  return Math.min(Math.max(left, 0), periodSeconds(period));
}
