/** The in-process limiter: exact at its edges, synchronous, memory bounded; and the factory. */
import { expect, test } from "bun:test";
import { createRateLimiter, MemoryRateLimiter, RATE_LIMIT, RedisRateLimiter } from "../../src/ratelimit";
import { defineRateLimiterCases } from "./cases";

defineRateLimiterCases("memory", (limit, windowMs) => new MemoryRateLimiter(limit, windowMs));

test("memory: take is synchronous (no Promise on the hot path)", () => {
  expect(new MemoryRateLimiter().take("k", 0).admitted).toBe(true);
});

test("memory: defaults are the spec's 500 per 60 s", () => {
  const l = new MemoryRateLimiter();
  expect([l.limit, l.windowMs]).toEqual([RATE_LIMIT.limit, RATE_LIMIT.windowMs]);
  expect(RATE_LIMIT).toEqual({ limit: 500, windowMs: 60_000 });
});

test("memory: the lazy sweep drops keys with nothing left in the window, once per window", () => {
  const l = new MemoryRateLimiter(2, 1_000);
  l.take("a", 0).admitted; // first take sweeps (nothing) and schedules the next sweep at 1_000
  l.take("b", 500).admitted;
  expect(l.size).toBe(2);
  l.take("c", 999).admitted;
  expect(l.size).toBe(3); // no sweep before 1_000
  l.take("c", 1_000).admitted; // sweep: a's newest (0) <= 1_000 - 1_000, dropped; b (500) still counts
  expect(l.size).toBe(2);
  expect(l.sweep(2_000)).toBe(2); // b and c idle for a full window
  expect(l.size).toBe(0);
});

test("memory: a dropped key behaves exactly as if it had been kept", () => {
  const l = new MemoryRateLimiter(2, 1_000);
  expect([l.take("a", 0).admitted, l.take("a", 0).admitted, l.take("a", 999).admitted]).toEqual([true, true, false]);
  l.sweep(1_000);
  expect(l.size).toBe(0);
  expect([l.take("a", 1_000).admitted, l.take("a", 1_000).admitted, l.take("a", 1_000).admitted]).toEqual([true, true, false]);
});

test("memory: a key holds slots for what it was admitted, not the whole limit, and stays exact as it grows", () => {
  const l = new MemoryRateLimiter(500, 60_000);
  for (let i = 0; i < 3; i++) expect(l.take("quiet", i).admitted).toBe(true);
  expect(l.slots).toBe(8); // a few requests: 64 bytes, not 500 slots
  // One admission per ms through every doubling (8, 16, ... 256, 500): the ring keeps its order.
  for (let i = 0; i < 500; i++) expect(l.take("busy", 1_000 + i).admitted).toBe(true);
  expect(l.slots).toBe(8 + 500);
  expect(l.take("busy", 1_499).admitted).toBe(false);
  expect(l.take("busy", 60_999).admitted).toBe(false); // the first (1_000) still inside
  expect(l.take("busy", 61_000).admitted).toBe(true); // exactly the first aged out
  expect(l.take("busy", 61_000).admitted).toBe(false);
  expect(l.take("busy", 61_001).admitted).toBe(true);
});

test("memory: a clock that steps back never admits more than the limit", () => {
  const l = new MemoryRateLimiter(2, 1_000);
  expect([l.take("k", 5_000).admitted, l.take("k", 4_000).admitted, l.take("k", 4_500).admitted]).toEqual([true, true, false]);
  expect(l.take("k", 5_999).admitted).toBe(false); // the step-back entry was recorded at 5_000, not 4_000
  expect(l.take("k", 6_000).admitted).toBe(true);
});

test("memory: a bad limit or window is refused at construction", () => {
  expect(() => new MemoryRateLimiter(0, 1_000)).toThrow(RangeError);
  expect(() => new MemoryRateLimiter(1.5, 1_000)).toThrow(RangeError);
  expect(() => new MemoryRateLimiter(10, 0)).toThrow(RangeError);
});

test("createRateLimiter: null when disabled, in-process by default, Redis with a URL", async () => {
  expect(createRateLimiter({ enabled: false, redisUrl: "redis://127.0.0.1:6379" })).toBeNull();
  const memory = createRateLimiter({ enabled: true });
  expect(memory).toBeInstanceOf(MemoryRateLimiter);
  const redis = createRateLimiter({ enabled: true, redisUrl: "redis://127.0.0.1:1" });
  expect(redis).toBeInstanceOf(RedisRateLimiter);
  await Promise.all([memory!.close(), redis!.close()]);
});
