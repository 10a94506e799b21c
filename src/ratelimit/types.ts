/**
 * The request rate limiter's contract, shared by the in-process and the Redis-backed implementations.
 *
 * Semantics (exact sliding log, not an approximation):
 *   A request for `key` at time `now` is admitted iff fewer than `limit` ADMITTED requests of that key
 *   have timestamps `t` with `t > now - windowMs`. Admitted requests are recorded; refused requests are
 *   NOT recorded, so a client that keeps hammering while blocked does not extend its own block.
 *   Example with limit 500, windowMs 60_000: 500 admitted at t0; a request at t0 + 59_999 is refused;
 *   at t0 + 60_000 the first 500 have aged out and it is admitted.
 *
 * `now` always comes from the caller's clock (src/lib/clock.ts), so the rule can be tested at exact instants.
 *
 * Each take also says where the window stands after it: how many more requests it admits now, and
 * when the oldest counted request leaves it (the instant a refused caller may next be admitted).
 */
export interface Admission {
  /** True: admitted (and recorded). False: refused; the caller answers 429. */
  admitted: boolean;
  /** Requests the window still admits at `now`, after this one. */
  remaining: number;
  /** When the oldest request counted in the window leaves it (`now` when none is counted). */
  resetAtMs: number;
}

export interface RateLimiter {
  readonly limit: number;
  take(key: string, nowMs: number): Admission | Promise<Admission>;
  /** Releases timers, memory and connections. */
  close(): Promise<void>;
}

/** The spec's figure: 500 requests per key per sliding 60-second window. */
export const RATE_LIMIT = { limit: 500, windowMs: 60_000 } as const;

/** Called when the shared store fails; the limiter has already failed open for that request. */
export type RateLimitErrorHandler = (error: unknown) => void;

export function assertLimits(limit: number, windowMs: number): void {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`rate limit must be a positive integer, got ${limit}`);
  if (!Number.isFinite(windowMs) || windowMs <= 0) throw new RangeError(`rate limit window must be > 0 ms, got ${windowMs}`);
}
