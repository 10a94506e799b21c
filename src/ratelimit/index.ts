/**
 * Picks the limiter from configuration: none when disabled, Redis (one window shared by every instance)
 * when REDIS_URL is set, otherwise the in-process one (one window per instance).
 */
import { MemoryRateLimiter } from "./memory";
import { RedisRateLimiter } from "./redis";
import type { RateLimitErrorHandler, RateLimiter } from "./types";

export { MemoryRateLimiter } from "./memory";
export { RedisRateLimiter, type RedisRateLimiterOptions } from "./redis";
export { RATE_LIMIT, type RateLimitErrorHandler, type RateLimiter } from "./types";

export function createRateLimiter(config: { enabled: boolean; redisUrl?: string }, onError?: RateLimitErrorHandler): RateLimiter | null {
  if (!config.enabled) return null;
  if (config.redisUrl) return new RedisRateLimiter({ url: config.redisUrl, onError });
  return new MemoryRateLimiter();
}
