import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { addMonths, addYears, periodAt, periodContaining, periodSeconds, secondsRemaining, type Interval } from "../../src/lib/period";

const iso = (ms: number) => new Date(ms).toISOString();
const at = (text: string) => Date.parse(text);
const DAY = 86_400;
const DAY_MS = DAY * 1000;
const timeOfDay = (ms: number) => ((ms % DAY_MS) + DAY_MS) % DAY_MS; // before 1970 too

// Instants from 1970 to 2200, anchors with any day and time of day.
const instant = fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) });
const interval = fc.constantFrom<Interval>("monthly", "yearly");

describe("calendar arithmetic", () => {
  test("a Jan 31 anchor clamps to each month's last day and returns to the 31st, over a leap year", () => {
    const anchor = at("2024-01-31T10:30:00.000Z");
    const starts = Array.from({ length: 14 }, (_, i) => iso(addMonths(anchor, i)).slice(0, 10));
    expect(starts).toEqual([
      "2024-01-31",
      "2024-02-29",
      "2024-03-31",
      "2024-04-30",
      "2024-05-31",
      "2024-06-30",
      "2024-07-31",
      "2024-08-31",
      "2024-09-30",
      "2024-10-31",
      "2024-11-30",
      "2024-12-31",
      "2025-01-31",
      "2025-02-28",
    ]);
    expect(iso(addMonths(anchor, 1))).toBe("2024-02-29T10:30:00.000Z");
    expect(iso(addMonths(anchor, -2))).toBe("2023-11-30T10:30:00.000Z");
  });

  test("a Feb 29 yearly anchor falls on Feb 28 and comes back on the next leap year", () => {
    const anchor = at("2024-02-29T00:00:00.000Z");
    expect([1, 2, 3, 4].map((n) => iso(addYears(anchor, n)).slice(0, 10))).toEqual(["2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29"]);
    expect(iso(addYears(at("2100-02-28T00:00:00Z"), 0))).toBe("2100-02-28T00:00:00.000Z"); // 2100 is not a leap year
    expect(iso(addYears(at("2096-02-29T00:00:00Z"), 4))).toBe("2100-02-28T00:00:00.000Z");
    expect(iso(addYears(at("1996-02-29T00:00:00Z"), 4))).toBe("2000-02-29T00:00:00.000Z");
  });

  test("periods are computed from the anchor, never chained: the day is the anchor's whenever the month has it", () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: -600, max: 600 }), (anchor, months) => {
        const moved = new Date(addMonths(anchor, months));
        const a = new Date(anchor);
        const monthsApart = (moved.getUTCFullYear() - a.getUTCFullYear()) * 12 + moved.getUTCMonth() - a.getUTCMonth();
        expect(monthsApart).toBe(months);
        const lastDay = new Date(moved.getTime());
        lastDay.setUTCDate(lastDay.getUTCDate() + 1);
        const clamped = moved.getUTCDate() < a.getUTCDate();
        expect(moved.getUTCDate() === a.getUTCDate() || (clamped && lastDay.getUTCDate() === 1)).toBe(true);
        expect(timeOfDay(moved.getTime())).toBe(timeOfDay(anchor));
      }),
    );
  });

  test("months must be whole", () => {
    expect(() => addMonths(0, 1.5)).toThrow(RangeError);
  });
});

describe("the period containing an instant", () => {
  test("a monthly subscription anchored Jan 31: mid-March is the Feb 29 - Mar 31 period", () => {
    const anchor = at("2024-01-31T00:00:00Z");
    const period = periodContaining(anchor, "monthly", at("2024-03-15T12:00:00Z"));
    expect({ index: period.index, start: iso(period.start), end: iso(period.end) }).toEqual({
      index: 1,
      start: "2024-02-29T00:00:00.000Z",
      end: "2024-03-31T00:00:00.000Z",
    });
    expect(periodContaining(anchor, "monthly", at("2024-03-31T00:00:00Z")).index).toBe(2); // the end belongs to the next period
    expect(periodContaining(anchor, "monthly", at("2024-01-30T23:59:59Z")).index).toBe(-1);
    expect(periodSeconds(period)).toBe(31 * DAY);
    expect(secondsRemaining(period, at("2024-03-30T00:00:00Z"))).toBe(DAY);
  });

  test("start <= now < end, periods tile without gaps, and lengths are calendar months or years", () => {
    fc.assert(
      fc.property(instant, instant, interval, (anchor, now, every) => {
        const period = periodContaining(anchor, every, now);
        expect(period.start <= now && now < period.end).toBe(true);
        expect(periodAt(anchor, every, period.index + 1).start).toBe(period.end);
        const days = periodSeconds(period) / DAY;
        expect(Number.isInteger(days)).toBe(true);
        if (every === "monthly") expect(days >= 28 && days <= 31).toBe(true);
        else expect(days === 365 || days === 366).toBe(true);
      }),
    );
  });

  test("seconds remaining are never negative and never more than the period", () => {
    fc.assert(
      fc.property(instant, instant, instant, interval, (anchor, inside, now, every) => {
        const period = periodContaining(anchor, every, inside);
        const left = secondsRemaining(period, now);
        expect(left >= 0 && left <= periodSeconds(period)).toBe(true);
        if (now >= period.end) expect(left).toBe(0);
        if (now <= period.start) expect(left).toBe(periodSeconds(period));
      }),
    );
  });

  test("a partial second is not counted as remaining", () => {
    const period = periodAt(at("2026-01-01T00:00:00Z"), "monthly", 0);
    expect(secondsRemaining(period, period.end - 1)).toBe(0);
    expect(secondsRemaining(period, period.end - 1000)).toBe(1);
    expect(secondsRemaining(period, period.start + 1)).toBe(periodSeconds(period) - 1);
  });
});
