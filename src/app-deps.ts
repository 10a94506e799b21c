/**
 * What the HTTP app needs from the process, and the one way to build it: src/index.ts and the test
 * helpers both call `startAppDeps`, so tests run the same caches, meter and limiter as production.
 */
import type { Sql } from "./db/client";
import type { Config } from "./config";
import type { Clock } from "./lib/clock";
import type { Logger } from "./lib/logger";
import { CredentialStore } from "./auth/credential-store";
import { EntitlementRuntime } from "./modules/entitlements/runtime";
import { createRateLimiter, type RateLimiter } from "./ratelimit";

export interface AppDeps {
  sql: Sql;
  config: Config;
  clock: Clock;
  logger: Logger;
  credentials: CredentialStore;
  entitlements: EntitlementRuntime;
  /** null when RATE_LIMIT_ENABLED=false */
  rateLimiter: RateLimiter | null;
  tokenSigningSecret: string;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function startAppDeps(sql: Sql, config: Config, clock: Clock, logger: Logger): Promise<AppDeps & { stop(): Promise<void> }> {
  const credentials = new CredentialStore(sql, clock, config.keyCacheTtlMs, (error) => logger.warn("lastUsedAt flush failed; will retry", { error: message(error) }));
  await credentials.start();
  const entitlements = new EntitlementRuntime(sql, clock, logger);
  await entitlements.start();
  const rateLimiter = createRateLimiter({ enabled: config.rateLimitEnabled, redisUrl: config.redisUrl }, (error) =>
    logger.warn("rate limiter store failed; request admitted", { error: message(error) }),
  );
  return {
    sql,
    config,
    clock,
    logger,
    credentials,
    entitlements,
    rateLimiter,
    tokenSigningSecret: config.tokenSigningSecret,
    /** Settles queued usage, flushes lastUsedAt, closes the limiter; the pool stays open for the caller. */
    async stop() {
      await entitlements.stop();
      await credentials.stop();
      await rateLimiter?.close();
    },
  };
}
