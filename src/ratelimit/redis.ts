/**
 * Redis-backed exact sliding-log limiter: every instance pointing at the same Redis shares one window
 * per key. Same semantics as types.ts; `now` is still the caller's clock, never Redis's.
 *
 * One Lua script per take makes trim + count + record atomic, so concurrent takes from any number of
 * instances can never admit more than `limit`. Each key is a sorted set of admitted timestamps (score =
 * time, member = unique id); refused takes write nothing. The set never holds more than `limit` members.
 *
 * Outage policy: FAIL OPEN. If Redis cannot be reached or does not answer within `commandTimeoutMs`, the
 * request is admitted and `onError` is told. The limiter protects the service from abusive clients; it
 * must not become the thing that takes the whole API down (the stance of Stripe's and Unkey's limiters).
 * Billing correctness never depends on it. Reconnection is ours, not the client's: at most one connect
 * attempt per `reconnectDelayMs`, and with the offline queue off, takes during an outage resolve at once
 * instead of piling up behind a reconnect loop. `onError` hears each failed connect attempt (so at most
 * one per `reconnectDelayMs` during an outage) and each failed or timed-out command; takes that merely
 * find the limiter in backoff are admitted silently, so an outage cannot flood the log.
 */
import { RedisClient } from "bun";
import { assertLimits, RATE_LIMIT, type Admission, type RateLimitErrorHandler, type RateLimiter } from "./types";

// KEYS[1] key; ARGV: now, windowMs, limit, member, ttlMs. Returns {1 admitted or 0 refused, requests
// counted in the window after the take, score of the oldest of them (a string: Lua numbers become integers)}.
// Entries with t <= now - window are out of the window (types.ts: t > now - window counts).
const TAKE_SCRIPT = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - tonumber(ARGV[2]))
local admitted = 0
if redis.call('ZCARD', key) < tonumber(ARGV[3]) then
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('PEXPIRE', key, ARGV[5])
  admitted = 1
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return {admitted, redis.call('ZCARD', key), oldest[2]}
`;
const TAKE_SHA = new Bun.CryptoHasher("sha1").update(TAKE_SCRIPT).digest("hex");

// The key lives this long past its newest admission, beyond the window itself, so that instances whose
// clocks run slightly ahead of the one that wrote it still see entries until they age out on their clock.
const CLOCK_SKEW_SLACK_MS = 5_000;

export interface RedisRateLimiterOptions {
  url: string;
  limit?: number;
  windowMs?: number;
  /** Prepended to every key, e.g. "rl:"; tests use a random one so runs never collide. */
  prefix?: string;
  onError?: RateLimitErrorHandler;
  connectionTimeoutMs?: number;
  commandTimeoutMs?: number;
  reconnectDelayMs?: number;
}

export class RedisRateLimiter implements RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  private readonly prefix: string;
  private readonly onError: RateLimitErrorHandler;
  private readonly commandTimeoutMs: number;
  private readonly reconnectDelayMs: number;
  private readonly client: RedisClient;
  private readonly memberTag = randomTag();
  private seq = 0;
  private connecting: Promise<void> | undefined;
  private lastConnectFailure = Number.NEGATIVE_INFINITY;
  private closed = false;

  constructor(options: RedisRateLimiterOptions) {
    this.limit = options.limit ?? RATE_LIMIT.limit;
    this.windowMs = options.windowMs ?? RATE_LIMIT.windowMs;
    assertLimits(this.limit, this.windowMs);
    this.prefix = options.prefix ?? "rl:";
    this.onError = options.onError ?? (() => {});
    this.commandTimeoutMs = options.commandTimeoutMs ?? 1_000;
    this.reconnectDelayMs = options.reconnectDelayMs ?? 1_000;
    this.client = new RedisClient(options.url, {
      connectionTimeout: options.connectionTimeoutMs ?? 1_000,
      autoReconnect: false,
      enableOfflineQueue: false,
    });
  }

  async take(key: string, nowMs: number): Promise<Admission> {
    if (this.closed) throw new Error("rate limiter is closed");
    // Failing open counts nothing: the whole limit remains, and there is nothing to wait for.
    const open: Admission = { admitted: true, remaining: this.limit, resetAtMs: nowMs };
    try {
      if (!this.client.connected && !(await this.connect())) return open; // in reconnect backoff
      const args = [this.prefix + key, nowMs, this.windowMs, this.limit, this.member(nowMs), this.windowMs + CLOCK_SKEW_SLACK_MS];
      const [admitted, counted, oldest] = (await this.withTimeout(this.run(args))) as [number, number, string];
      return { admitted: admitted === 1, remaining: this.limit - counted, resetAtMs: Number(oldest) + this.windowMs };
    } catch (error) {
      this.onError(error);
      return open; // fail open, see the header
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.client.close();
  }

  /** EVALSHA with the digest computed locally; EVAL (which also caches the script) on NOSCRIPT. */
  private async run(args: (string | number)[]): Promise<unknown> {
    try {
      return await this.client.evalsha(TAKE_SHA, 1, ...args);
    } catch (error) {
      if (!String((error as Error)?.message).startsWith("NOSCRIPT")) throw error;
      return await this.client.eval(TAKE_SCRIPT, 1, ...args);
    }
  }

  /** Resolves true once connected; false while backing off after a failure; throws on a fresh failure. */
  private async connect(): Promise<boolean> {
    if (!this.connecting) {
      if (performance.now() - this.lastConnectFailure < this.reconnectDelayMs) return false;
      this.connecting = this.withTimeout(this.client.connect()).then(
        () => {
          this.connecting = undefined;
        },
        (error: unknown) => {
          this.connecting = undefined;
          this.lastConnectFailure = performance.now();
          throw error;
        },
      );
      // Only the take that started the attempt reports its failure; the others just fail open.
      await this.connecting;
      return true;
    }
    return this.connecting.then(
      () => true,
      () => false,
    );
  }

  private withTimeout<T>(work: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`redis did not answer within ${this.commandTimeoutMs} ms`)), this.commandTimeoutMs);
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }

  /** Unique per admission across instances: sorted-set members must differ even at the same instant. */
  private member(nowMs: number): string {
    this.seq = (this.seq + 1) % Number.MAX_SAFE_INTEGER;
    return `${nowMs}:${this.memberTag}:${this.seq}`;
  }
}

function randomTag(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
