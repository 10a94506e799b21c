/**
 * The bed the anvil subscription tests share: the chain bed (test/helpers/chains/anvil-subscriptions.ts), a test
 * app whose registry names it and whose chain workers hold its operator key, a team with its settlement wallet
 * on anvil (the bed's payee), and what the tests call the catalog with. Plans are each file's own (`monthly`
 * writes their prices; `PRO_ON_ANVIL` is the common one: 10 USDC a month, on-chain id "pro"). On Solana: the
 * litesvm chain (test/helpers/chains/solana-subscriptions.ts) and the service on it (test/helpers/subscription-service.ts); on
 * Stellar the same over the Soroban RPC double (test/helpers/chains/stellar-subscriptions.ts).
 */
import { afterAll } from "bun:test";
import { setSettlementWallet } from "../../src/modules/invoices/settings/manage";
import { createTestApp } from "./app";
import { anvilSubscriptionBed, type SubscriptionBedOptions } from "./chains/anvil-subscriptions";
import { startSolanaSubscriptionChain } from "./chains/solana-subscriptions";
import { startStellarSubscriptions } from "./chains/stellar-subscriptions";
import { createTeamFixture } from "./fixtures";
import { subscriptionService } from "./subscription-service";

/** A plan's prices: one monthly price of `amount` USDC. */
export const monthly = (amount: string) => [{ billingPeriod: "monthly" as const, amount, currency: "USDC" }];

/** The plan "Pro" at 10 USDC a month, on-chain id "pro" on anvil. */
export const PRO_ON_ANVIL = { name: "Pro", prices: monthly("10"), onchainPlanIds: { anvil: "pro" } };

export interface AnvilSubscriptionAppOptions extends SubscriptionBedOptions {
  /** more of the app's configuration (e.g. CHAIN_JOB_TIMEOUT_MS) */
  env?: Record<string, string>;
  teamName?: string;
}

/** The bed, stopped after the file's tests; the app; the team with its settlement wallet on anvil. */
export async function anvilSubscriptionApp(options: AnvilSubscriptionAppOptions = {}) {
  const { env = {}, teamName, ...bedOptions } = options;
  const bed = await anvilSubscriptionBed(bedOptions);
  afterAll(() => bed.stop());
  const t = await createTestApp({ CHAIN_REGISTRY_FILE: bed.registryFile, SUBSCRIPTION_EVM_OPERATOR_KEY: bed.operatorKey, ...env });
  const team = await createTeamFixture(t, teamName);
  const tenant = { teamId: team.teamId, environment: "development" as const };
  const actor = { kind: "test", id: "test", requestId: null };
  const catalog = { sql: t.db.sql, chains: t.config.chains, now: () => new Date(t.clock.now()) };
  await setSettlementWallet({ sql: t.db.sql, registry: t.config.chains }, { tenant, actor, now: new Date(t.clock.now()) }, "anvil", {
    wallet: bed.payee,
  });
  /** The service's clock follows the chain's, so periods and the contract's windows agree. */
  const syncClock = async () => t.clock.set((await bed.now()) * 1000);
  /** The plan company "acme" is on. */
  const companyPlan = async () =>
    (await t.db.sql`select active_plan_id from companies where team_id = ${team.teamId} and external_id = 'acme'`)[0]!.active_plan_id;
  return { bed, t, team, tenant, actor, catalog, syncClock, companyPlan };
}

/**
 * The Solana chain with the payer's `balance` and the amount it `approved` our operator, stopped after the file's
 * tests, and the service on it; `elapse` moves the service's clock and the ledger's together (0: only syncs them).
 */
export async function solanaSubscriptionService(funds: { balance: bigint; approved: bigint }) {
  const chain = startSolanaSubscriptionChain(funds);
  afterAll(() => chain.stop());
  const service = await subscriptionService(chain.network, chain.operatorKeys, chain.payee.publicKey.toBase58());
  const { t } = service;
  function elapse(ms: number) {
    t.clock.advance(ms);
    const clock = chain.ledger.svm.getClock();
    clock.unixTimestamp = BigInt(Math.floor(t.clock.now() / 1000));
    chain.ledger.svm.setClock(clock);
  }
  elapse(0);
  return { chain, service, t, elapse };
}

/**
 * The Stellar double with the payer holding `payerBalance`, stopped after the file's tests, and the service on it
 * holding the operator's secret (`env`: more of the app's configuration).
 */
export async function stellarSubscriptionService(payerBalance: bigint, env: Record<string, string> = {}) {
  const s = startStellarSubscriptions({ payerBalance });
  afterAll(() => s.stop());
  const service = await subscriptionService(s.network, { SUBSCRIPTION_STELLAR_OPERATOR_SECRET: s.operatorSecret }, s.payee.publicKey(), env);
  return { s, service, t: service.t };
}
