/**
 * The limiter's contract (src/ratelimit/types.ts) as one table of edge cases, run against every
 * implementation: in-process (test/ratelimit/memory.test.ts) and Redis (test/ratelimit/redis.test.ts).
 */
import { expect, test } from "bun:test";
import type { RateLimiter } from "../../src/ratelimit/types";

type Make = (limit: number, windowMs: number) => RateLimiter;
const LIMIT = 500;
const WINDOW = 60_000;
const t0 = Date.UTC(2026, 0, 1);

/** Fires `n` takes at `now` together; returns how many were admitted. */
export async function takeMany(limiter: RateLimiter, key: string, now: number, n: number): Promise<number> {
  const results = await Promise.all(Array.from({ length: n }, () => limiter.take(key, now)));
  return results.filter((r) => r.admitted).length;
}

export function defineRateLimiterCases(label: string, make: Make, testIf: typeof test = test): void {
  const run = (name: string, body: (limiter: RateLimiter) => Promise<void>) =>
    testIf(`${label}: ${name}`, async () => {
      const limiter = make(LIMIT, WINDOW);
      try {
        await body(limiter);
      } finally {
        await limiter.close();
      }
    });

  run("500 at t0 admitted, the 501st refused; refused at t0+59_999; all capacity back at t0+60_000", async (l) => {
    expect(await takeMany(l, "k", t0, 500)).toBe(500);
    expect((await l.take("k", t0)).admitted).toBe(false);
    expect((await l.take("k", t0 + 59_999)).admitted).toBe(false);
    expect(await takeMany(l, "k", t0 + 60_000, 501)).toBe(500);
  });

  run("one per millisecond: at t0+60_000 exactly the first has aged out, then one more per ms", async (l) => {
    for (let i = 0; i < 500; i++) expect((await l.take("k", t0 + i)).admitted).toBe(true);
    expect((await l.take("k", t0 + 499)).admitted).toBe(false);
    expect((await l.take("k", t0 + 59_999)).admitted).toBe(false);
    expect((await l.take("k", t0 + 60_000)).admitted).toBe(true);
    expect((await l.take("k", t0 + 60_000)).admitted).toBe(false);
    expect((await l.take("k", t0 + 60_001)).admitted).toBe(true);
    expect((await l.take("k", t0 + 60_001)).admitted).toBe(false);
  });

  run("250 at t0 and 250 at t0+30_000: capacity comes back in two steps", async (l) => {
    expect(await takeMany(l, "k", t0, 250)).toBe(250);
    expect(await takeMany(l, "k", t0 + 30_000, 251)).toBe(250);
    expect((await l.take("k", t0 + 59_999)).admitted).toBe(false);
    expect(await takeMany(l, "k", t0 + 60_000, 251)).toBe(250);
    expect((await l.take("k", t0 + 89_999)).admitted).toBe(false);
    expect(await takeMany(l, "k", t0 + 90_000, 251)).toBe(250);
  });

  run("each take says what the window has left and when its oldest counted request leaves it", async (l) => {
    expect(await l.take("k", t0)).toEqual({ admitted: true, remaining: 499, resetAtMs: t0 + 60_000 });
    expect(await l.take("k", t0 + 1_000)).toEqual({ admitted: true, remaining: 498, resetAtMs: t0 + 60_000 });
    expect(await takeMany(l, "k", t0 + 2_000, 498)).toBe(498);
    expect(await l.take("k", t0 + 30_000)).toEqual({ admitted: false, remaining: 0, resetAtMs: t0 + 60_000 });
    // The first leaves at t0+60_000: one more fits, and the next refusal waits for the second (t0+1_000).
    expect(await l.take("k", t0 + 60_000)).toEqual({ admitted: true, remaining: 0, resetAtMs: t0 + 61_000 });
    expect(await l.take("k", t0 + 60_500)).toEqual({ admitted: false, remaining: 0, resetAtMs: t0 + 61_000 });
    expect(await l.take("k", t0 + 200_000)).toEqual({ admitted: true, remaining: 499, resetAtMs: t0 + 260_000 });
    // Requests that aged out are not counted, before the key ever reaches the limit too.
    expect(await takeMany(l, "j", t0, 3)).toBe(3);
    expect(await l.take("j", t0 + 59_999)).toEqual({ admitted: true, remaining: 496, resetAtMs: t0 + 60_000 });
    expect(await l.take("j", t0 + 60_000)).toEqual({ admitted: true, remaining: 498, resetAtMs: t0 + 119_999 });
  });

  run("keys are independent", async (l) => {
    expect(await takeMany(l, "a", t0, 501)).toBe(500);
    expect(await takeMany(l, "b", t0, 501)).toBe(500);
    expect((await l.take("a", t0 + 1)).admitted).toBe(false);
    expect((await l.take("c", t0 + 1)).admitted).toBe(true);
  });

  run("refused requests are not recorded, so hammering does not extend the block", async (l) => {
    expect(await takeMany(l, "k", t0, 500)).toBe(500);
    for (let at = t0 + 100; at < t0 + 60_000; at += 100) expect((await l.take("k", at)).admitted).toBe(false);
    expect(await takeMany(l, "k", t0 + 60_000, 501)).toBe(500);
  });
}
