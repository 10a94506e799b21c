/**
 * In-process exact sliding-log limiter: one instance serves one process (see redis.ts for shared windows).
 *
 * Each key owns a ring buffer of the timestamps of its last `limit` admitted requests. Timestamps are
 * written in non-decreasing order, so once the ring is full the slot about to be overwritten holds the
 * oldest of them: if that one is still inside the window, all `limit` are, and the request is refused.
 * Older admissions were already overwritten and are older still, so they cannot count. This is exact,
 * O(1) per take (amortised).
 *
 * A ring starts at 8 slots and doubles as admissions fill it, up to `limit`. Until it reaches `limit` it
 * has never wrapped, so it stays in admission order and the doubling is a plain copy. A key that makes a
 * few requests a minute (most embed tokens) thus holds 64 bytes, not the 4 KB of a full ring at 500.
 *
 * Memory is bounded by a LAZY sweep, not a timer: the first take at or after `nextSweepAt` (once per
 * window, on the caller's clock) drops every key whose newest admission is older than the window. Such a
 * key has nothing inside the window, so dropping it changes no answer. Being driven by the caller's clock
 * keeps the limiter deterministic under a manual clock and leaves no timer to clean up. Memory is thus
 * bounded by the keys seen in the last two windows, each holding at most twice the admissions it has
 * had since it was first seen (rings never shrink while a key stays active), and never over 4 KB at 500.
 */
import { assertLimits, RATE_LIMIT, type Admission, type RateLimiter } from "./types";

const FIRST_SLOTS = 8;

interface KeyLog {
  /** Admitted timestamps, a ring; `next` is the slot written next (and, when full, the oldest). */
  times: Float64Array;
  next: number;
  count: number;
  newest: number;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, KeyLog>();
  private nextSweepAt = Number.NEGATIVE_INFINITY;

  constructor(
    readonly limit: number = RATE_LIMIT.limit,
    readonly windowMs: number = RATE_LIMIT.windowMs,
  ) {
    assertLimits(limit, windowMs);
  }

  take(key: string, nowMs: number): Admission {
    if (nowMs >= this.nextSweepAt) this.sweep(nowMs);
    let log = this.logs.get(key);
    if (log === undefined) {
      log = { times: new Float64Array(Math.min(FIRST_SLOTS, this.limit)), next: 0, count: 0, newest: Number.NEGATIVE_INFINITY };
      this.logs.set(key, log);
    }
    if (log.count === this.limit) {
      const oldest = log.times[log.next]!;
      if (oldest > nowMs - this.windowMs) return { admitted: false, remaining: 0, resetAtMs: oldest + this.windowMs }; // not recorded
    } else {
      if (log.count === log.times.length) log.times = grown(log.times, this.limit); // not wrapped yet: next === count
      log.count++;
    }
    // If the caller's clock stepped back, record the newest time seen instead, keeping the ring sorted
    // (which the check above relies on). That only ever makes the entry age out a little later.
    const at = nowMs > log.newest ? nowMs : log.newest;
    log.times[log.next] = at;
    log.newest = at;
    log.next = log.next + 1 === this.limit ? 0 : log.next + 1; // below `limit` slots, the next take grows the ring first
    return this.standing(log, nowMs);
  }

  /**
   * The window after an admission: the ring is sorted from its oldest slot (`next` once full, else 0),
   * so the first entry still inside the window is found by binary search, O(log limit).
   */
  private standing(log: KeyLog, nowMs: number): Admission {
    const start = log.count === this.limit ? log.next : 0;
    const at = (i: number) => log.times[(start + i) % log.times.length]!;
    const horizon = nowMs - this.windowMs;
    let low = 0;
    let high = log.count - 1; // the newest, just written, is inside
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (at(mid) > horizon) high = mid;
      else low = mid + 1;
    }
    return { admitted: true, remaining: this.limit - (log.count - low), resetAtMs: at(low) + this.windowMs };
  }

  /** Drops keys with nothing inside the window at `nowMs`; returns how many were dropped. */
  sweep(nowMs: number): number {
    const horizon = nowMs - this.windowMs;
    let dropped = 0;
    for (const [key, log] of this.logs) {
      if (log.newest <= horizon) {
        this.logs.delete(key);
        dropped++;
      }
    }
    this.nextSweepAt = nowMs + this.windowMs;
    return dropped;
  }

  /** Number of keys currently held; for tests and metrics. */
  get size(): number {
    return this.logs.size;
  }

  /** Timestamp slots held across all keys; for tests and metrics. */
  get slots(): number {
    let total = 0;
    for (const log of this.logs.values()) total += log.times.length;
    return total;
  }

  async close(): Promise<void> {
    this.logs.clear();
  }
}

/** Twice the ring, at most `limit` slots, admissions kept in order. */
function grown(times: Float64Array, limit: number): Float64Array {
  const next = new Float64Array(Math.min(times.length * 2, limit));
  next.set(times);
  return next;
}
