/**
 * What the HTTP app needs from the process, and the one way to build it: src/index.ts and the test
 * helpers both call `startAppDeps`, so tests run the same caches, meter and limiter as production.
 */
import type { SubscriptionDeps } from "./modules/subscriptions/context";
import type { Sql } from "./db/client";
import type { Config } from "./config";
import type { Clock } from "./lib/clock";
import type { Logger } from "./lib/logger";
import { CredentialStore } from "./auth/credential-store";
import { EmbedTokens } from "./auth/embed-tokens";
import { TokenKeys } from "./auth/token-keys";
import { EntitlementRuntime } from "./modules/entitlements/runtime";
import { createRateLimiter, type RateLimiter } from "./ratelimit";
import { ChainPool } from "./chains/pool";
import type { SettlementDeps } from "./modules/payments/settle";
import { Mailer } from "./modules/invoices/deliveries/mailer";
import { invoiceCheckoutSession } from "./modules/invoices/payments/checkout";
import type { PaymentGate } from "./modules/entitlements/gate";
import { withX402 } from "./modules/x402/pay";
import { claimLeaseMs } from "./modules/x402/compute";

export interface AppDeps {
  sql: Sql;
  config: Config;
  clock: Clock;
  logger: Logger;
  credentials: CredentialStore;
  entitlements: EntitlementRuntime;
  /** null when RATE_LIMIT_ENABLED=false */
  rateLimiter: RateLimiter | null;
  /** signs and verifies embed tokens and session JWTs (current and, during a rotation, previous secret) */
  embedTokens: EmbedTokens;
  /** chain registry, worker pool and cache hook for payment settlement */
  settlement: SettlementDeps;
  /** the process's one pooled SMTP client for invoice emails; null without SMTP_URL */
  mailer: Mailer | null;
  /** database, chain registry and worker pool for subscriptions and mandates */
  subscriptions: SubscriptionDeps;
  /** x402 around the metered requests (docs/x402.md) */
  paymentGate: PaymentGate;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function startAppDeps(sql: Sql, config: Config, clock: Clock, logger: Logger): Promise<AppDeps & { stop(): Promise<void> }> {
  const credentials = new CredentialStore(sql, clock, config.keyCacheTtlMs, (error) =>
    logger.warn("lastUsedAt flush failed; will retry", { error: message(error) }),
  );
  await credentials.start();
  const embedTokens = new EmbedTokens(await TokenKeys.create(config.tokenSigningSecret, config.previousTokenSigningSecret), clock);
  const entitlements = new EntitlementRuntime(sql, clock, logger);
  await entitlements.start();
  const rateLimiter = createRateLimiter({ enabled: config.rateLimitEnabled, redisUrl: config.redisUrl }, (error) =>
    logger.warn("rate limiter store failed; request admitted", { error: message(error) }),
  );
  const pool = new ChainPool({
    size: config.chainWorkers,
    jobTimeoutMs: config.chainJobTimeoutMs,
    operatorKeys: config.operatorKeys,
    onWorkerLost: (reason) => logger.warn("chain worker lost; replaced", { reason }),
  });
  const settlement: SettlementDeps = {
    sql,
    registry: config.chains,
    pool,
    companyChanged: (tenant, companyId) => entitlements.companyChanged(tenant, companyId),
    invoiceSession: (tx, tenant, actor, session, payment, now) =>
      invoiceCheckoutSession({ tx, tenant, actor, chains: config.chains, now, emailEnabled: config.smtpUrl !== undefined }, session, payment),
  };
  // Connects on the first email, not here: a service whose SMTP server is down still starts.
  const mailer = config.smtpUrl ? new Mailer(config.smtpUrl) : null;
  return {
    sql,
    config,
    clock,
    logger,
    credentials,
    entitlements,
    rateLimiter,
    embedTokens,
    settlement,
    mailer,
    paymentGate: (paid, run) => withX402({ sql, clock, settlement, leaseMs: claimLeaseMs(config.chainJobTimeoutMs), origin: config }, paid, run),
    subscriptions: {
      sql,
      chains: config.chains,
      pool,
      emailEnabled: config.smtpUrl !== undefined,
      companyChanged: (tenant, companyId) => entitlements.companyChanged(tenant, companyId),
    },
    /** Settles queued usage, flushes lastUsedAt, closes the limiter and the SMTP connections (after the jobs stopped:
     * index.ts and worker.ts stop the runner first); the database pool stays open for the caller. */
    async stop() {
      // Every step runs even when an earlier one fails: queued usage and lastUsedAt must still be flushed.
      const steps = [() => pool.close(), () => entitlements.stop(), () => credentials.stop(), () => rateLimiter?.close(), () => mailer?.close()];
      const errors: unknown[] = [];
      for (const step of steps)
        await Promise.resolve()
          .then(step)
          .catch((error) => errors.push(error));
      if (errors.length === 1) throw errors[0];
      if (errors.length > 1) throw new AggregateError(errors, `${errors.length} shutdown steps failed: ${errors.map(message).join("; ")}`);
    },
  };
}
