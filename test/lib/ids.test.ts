/** Type-prefixed ids: the random ones and the time-ordered ones used for usage events. */
import { expect, test } from "bun:test";
import { newId, newTimeOrderedId } from "../../src/lib/ids";

test("a time-ordered id has the shape of any other id", () => {
  expect(newTimeOrderedId("evt")).toMatch(/^evt_[0-9A-Za-z]{24}$/);
  expect(newId("evt")).toMatch(/^evt_[0-9A-Za-z]{24}$/);
  // An injected clock may hand over anything: fractions are cut, times before 1970 count as 1970.
  expect(newTimeOrderedId("evt", 62.9).slice(4, 12)).toBe("00000010");
  expect(newTimeOrderedId("evt", -5)).toMatch(/^evt_00000000[0-9A-Za-z]{16}$/);
});

test("time-ordered ids sort by their creation time, to the millisecond", () => {
  const times = [0, 1, 61, 62, 3843, 1_700_000_000_000, 1_700_000_000_001, Date.UTC(2026, 10, 21), Date.UTC(8000, 0, 1)];
  const ids = times.map((time) => newTimeOrderedId("evt", time));
  expect([...ids].sort()).toEqual(ids); // byte order: every character is ASCII
  expect(ids[0]!.slice(4, 12)).toBe("00000000");
  expect(ids[3]!.slice(4, 12)).toBe("00000010"); // 62 is "10" in base 62
});

test("ids made in the same millisecond differ in their random part", () => {
  const ids = Array.from({ length: 1000 }, () => newTimeOrderedId("evt", 1_700_000_000_000));
  expect(new Set(ids).size).toBe(1000);
  expect(new Set(ids.map((id) => id.slice(0, 12))).size).toBe(1);
});
