/**
 * Billing dates over four years of subscription start instants (2027-2030, UTC): any second, every month's
 * last day, and the leap day 2028-02-29, each at any time of day. For each start: renewal dates, dunning
 * retries (on time and late), trial ends, proration seconds and quota resets follow the calendar rules
 * written in lib/period.ts and the modules' headers, whatever the month. The expectations are worked out
 * here from the calendar (days in a month, time of day), apart from the code under test.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { DAY_MS, periodAt, periodContaining, periodSeconds, secondsRemaining, type Interval } from "../../src/lib/period";
import { periodBounds } from "../../src/modules/entitlements/compute";
import { nextDunningStep } from "../../src/modules/subscriptions/renewal/dunning";
import { firstPeriod } from "../../src/modules/subscriptions/activation/first-period";

const RUNS = { numRuns: 500 };
const HOUR_MS = 3_600_000;
const FROM = Date.UTC(2027, 0, 1);
const TO = Date.UTC(2031, 0, 1);

const timeOfDay = fc.integer({ min: 0, max: DAY_MS / 1000 - 1 }).map((s) => s * 1000);
/** Month ends of 2027-2030 (the day before the next month's first), the leap day, and any second between. */
const start = fc.oneof(
  fc.integer({ min: FROM / 1000, max: TO / 1000 - 1 }).map((s) => s * 1000),
  fc.tuple(fc.integer({ min: 2027, max: 2030 }), fc.integer({ min: 0, max: 11 }), timeOfDay).map(([y, m, t]) => Date.UTC(y, m + 1, 0) + t),
  timeOfDay.map((t) => Date.UTC(2028, 1, 29) + t),
);
const interval = fc.constantFrom<Interval>("monthly", "yearly");
const MONTHS: Record<Interval, number> = { monthly: 1, yearly: 12 };

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
const msOfDay = (ms: number) => ms % DAY_MS;

/** The k-th renewal's date as a person reads the calendar: k months on, the day clamped, the time kept. */
function expectedStart(anchor: number, months: number): number {
  const a = new Date(anchor);
  const total = a.getUTCMonth() + months;
  const year = a.getUTCFullYear() + Math.floor(total / 12);
  const month = total % 12;
  return Date.UTC(year, month, Math.min(a.getUTCDate(), daysIn(year, month))) + msOfDay(anchor);
}

describe("renewal dates", () => {
  test("every period starts on the anchor's day (clamped to short months) at its time of day, and the periods tile", () => {
    fc.assert(
      fc.property(start, interval, fc.integer({ min: 0, max: 60 }), (anchor, every, k) => {
        const period = periodAt(anchor, every, k);
        expect(period.start).toBe(expectedStart(anchor, k * MONTHS[every]));
        expect(period.end).toBe(periodAt(anchor, every, k + 1).start);
        // Whole days: a renewal never drifts off the anchor's time of day.
        expect((period.end - period.start) % DAY_MS).toBe(0);
        expect(periodContaining(anchor, every, period.start)).toEqual(period);
        expect(periodContaining(anchor, every, period.end - 1)).toEqual(period);
      }),
      RUNS,
    );
  });

  test("a month-end anchor returns to its own day whenever the month has it", () => {
    const jan31 = Date.UTC(2027, 0, 31, 23, 30);
    const days = Array.from({ length: 14 }, (_, k) => new Date(periodAt(jan31, "monthly", k).start).toISOString().slice(0, 16));
    expect(days).toEqual([
      "2027-01-31T23:30",
      "2027-02-28T23:30",
      "2027-03-31T23:30",
      "2027-04-30T23:30",
      "2027-05-31T23:30",
      "2027-06-30T23:30",
      "2027-07-31T23:30",
      "2027-08-31T23:30",
      "2027-09-30T23:30",
      "2027-10-31T23:30",
      "2027-11-30T23:30",
      "2027-12-31T23:30",
      "2028-01-31T23:30",
      "2028-02-29T23:30",
    ]);
  });
});

describe("dunning retries", () => {
  const schedule = fc.uniqueArray(fc.integer({ min: 1, max: 8784 }), { minLength: 1, maxLength: 10 }).map((hours) => hours.sort((a, b) => a - b));

  test("on time, each retry lands at its planned hour after the period's start; after the last one, cancel", () => {
    fc.assert(
      fc.property(start, schedule, (periodStart, hours) => {
        let now = periodStart;
        hours.forEach((h, n) => {
          const step = nextDunningStep(n + 1, hours, new Date(periodStart), new Date(now));
          expect(step).toEqual({ kind: "retry", at: new Date(periodStart + h * HOUR_MS) });
          now = periodStart + h * HOUR_MS;
        });
        expect(nextDunningStep(hours.length + 1, hours, new Date(periodStart), new Date(now))).toEqual({ kind: "cancel" });
      }),
      RUNS,
    );
  });

  test("run late, no retry comes sooner than the schedule's gap after the failure before it, none is skipped, none is early", () => {
    fc.assert(
      fc.property(
        start,
        schedule,
        fc.array(fc.integer({ min: 0, max: 10 * DAY_MS }), { minLength: 11, maxLength: 11 }),
        (periodStart, hours, lateness) => {
          // The first attempt runs late by lateness[0]; every retry runs lateness[n] after it fell due.
          let now = periodStart + lateness[0]!;
          let previousHours = 0;
          hours.forEach((h, n) => {
            const step = nextDunningStep(n + 1, hours, new Date(periodStart), new Date(now));
            if (step.kind !== "retry") throw new Error("a retry was skipped");
            expect(step.at.getTime()).toBeGreaterThanOrEqual(periodStart + h * HOUR_MS);
            expect(step.at.getTime() - now).toBeGreaterThanOrEqual((h - previousHours) * HOUR_MS);
            previousHours = h;
            now = step.at.getTime() + lateness[n + 1]!;
          });
          expect(nextDunningStep(hours.length + 1, hours, new Date(periodStart), new Date(now)).kind).toBe("cancel");
        },
      ),
      RUNS,
    );
  });
});

describe("trial ends", () => {
  test("a trial lasts its whole days to the millisecond, and paid periods are anchored at its end", () => {
    fc.assert(
      fc.property(start, fc.integer({ min: 1, max: 730 }), interval, (now, days, every) => {
        const first = firstPeriod(new Date(now), days, every);
        expect(first.trialEnd!.getTime()).toBe(now + days * DAY_MS);
        expect(first.anchor).toEqual(first.trialEnd!);
        expect(first.periodEnd).toEqual(first.trialEnd!);
        expect(periodAt(first.anchor.getTime(), every, 0).start).toBe(first.trialEnd!.getTime());
      }),
      RUNS,
    );
  });

  test("without a trial, the first paid period starts now and ends one calendar month or year on", () => {
    fc.assert(
      fc.property(start, interval, (now, every) => {
        const first = firstPeriod(new Date(now), 0, every);
        expect(first.trialEnd).toBeNull();
        expect(first.anchor.getTime()).toBe(now);
        expect(first.periodEnd.getTime()).toBe(expectedStart(now, MONTHS[every]));
      }),
      RUNS,
    );
  });
});

describe("proration seconds", () => {
  test("the seconds left and the seconds used make the period, which is whole days of seconds; a started second is not left", () => {
    fc.assert(
      fc.property(start, interval, fc.integer({ min: 0, max: 24 }), fc.double({ min: 0, max: 1, noNaN: true }), (anchor, every, k, at) => {
        const period = periodAt(anchor, every, k);
        const total = periodSeconds(period);
        expect(total).toBe(((period.end - period.start) / DAY_MS) * 86_400);
        const now = period.start + Math.floor(at * (period.end - period.start - 1));
        const left = secondsRemaining(period, now);
        expect(left).toBe(Math.floor((period.end - now) / 1000));
        expect(left + Math.ceil((now - period.start) / 1000)).toBe(total);
        expect(secondsRemaining(period, period.start)).toBe(total);
        expect(secondsRemaining(period, period.end)).toBe(0);
      }),
      RUNS,
    );
  });
});

describe("quota resets", () => {
  test("a monthly quota resets exactly when the billing period renews; daily and weekly ones every whole day or week from the anchor", () => {
    fc.assert(
      fc.property(start, fc.integer({ min: 0, max: 4 * 366 * DAY_MS }), (anchor, offset) => {
        const now = anchor + offset;
        const billing = periodContaining(anchor, "monthly", now);
        expect(periodBounds(anchor, "month", now)).toEqual({ start: billing.start, end: billing.end });
        for (const [quota, length] of [
          ["day", DAY_MS],
          ["week", 7 * DAY_MS],
        ] as const) {
          const bounds = periodBounds(anchor, quota, now);
          expect(bounds.end! - bounds.start).toBe(length);
          expect((bounds.start - anchor) % length).toBe(0);
          expect(bounds.start <= now && now < bounds.end!).toBe(true);
        }
      }),
      RUNS,
    );
  });
});
