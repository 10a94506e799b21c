/**
 * The service's side of a subscription's life on one test network, for the lifecycle tests of the chain
 * families: a test app whose registry file names the network and whose chain workers hold the family's
 * operator key, a team with a settlement wallet there (the payee) and a plan "Pro" at 10 USDC a month whose
 * on-chain id is "pro" (more teams of the same app: subscriptionTeam), activation with the payer's signed
 * consent where the family needs it, and readers of what the database holds. Time moves with the app's clock (`t.clock`);
 * the chain's own clock is the test's to move alongside.
 */
import { afterAll } from "bun:test";
import { rm } from "node:fs/promises";
import type { OperatorKeys } from "../../src/lib/operator-keys";
import type { NetworkConfig } from "../../src/chains/types";
import type { PayerConsent } from "../../src/modules/subscriptions/activation/payer-consent";
import { createPlanRecord } from "../../src/modules/catalog/plans/edit";
import { setSettlementWallet } from "../../src/modules/invoices/settings/manage";
import { queueDueRenewals } from "../../src/modules/subscriptions/renewal/jobs";
import { createTestApp, type TestApp } from "./app";
import { createTeamFixture } from "./fixtures";
import { type DrainOptions, drainJobs } from "./jobs";
import { type MessageSigner, signConsent } from "./payer-consent";

export const DAY_MS = 86_400_000;
/** The plan's price in invoice micro-units (10 USDC). */
export const PRICE_MICRO = 10_000_000n;

/** `env`: more of the app's configuration (e.g. CHAIN_JOB_TIMEOUT_MS). */
export async function subscriptionService(network: NetworkConfig, operatorKeys: OperatorKeys, payee: string, env: Record<string, string> = {}) {
  const registryFile = `${process.cwd()}/.data/test/subscriptions-${network.id}-${crypto.randomUUID()}.json`;
  await Bun.write(registryFile, JSON.stringify([network]));
  afterAll(() => rm(registryFile, { force: true }));
  const t = await createTestApp({ CHAIN_REGISTRY_FILE: registryFile, ...(operatorKeys as Record<string, string>), ...env });
  return { ...(await subscriptionTeam(t, network, payee)), t };
}

/** Activation's options: `consent` as sent (null: none); by default the payer signs one for this team now. */
export interface ActivateOptions {
  consent?: PayerConsent | null;
}

/**
 * A team of the app `t` with its settlement wallet `payee` on `network` and the plan "Pro" (on-chain id
 * "pro"), and the calls and readers of its subscriptions. Several teams of one app share the operator, as
 * tenants of one service do.
 */
export async function subscriptionTeam(t: TestApp, network: NetworkConfig, payee: string) {
  const team = await createTeamFixture(t);
  const tenant = { teamId: team.teamId, environment: "development" as const };
  const actor = { kind: "test", id: "test", requestId: null };
  const now = () => new Date(t.clock.now());
  await setSettlementWallet({ sql: t.db.sql, registry: t.config.chains }, { tenant, actor, now: now() }, network.id, { wallet: payee });
  const plan = await createPlanRecord({ sql: t.db.sql, chains: t.config.chains, now }, tenant, actor, {
    name: "Pro",
    prices: [{ billingPeriod: "monthly", amount: "10", currency: "USDC" }],
    onchainPlanIds: { [network.id]: "pro" },
  });
  const sql = t.db.sql;
  /** What this team's activation of "Pro" for `company` asks a payer to consent to. */
  const consentTerms = (company: string) => ({
    family: network.family,
    payee,
    networkId: network.id,
    tokenSymbol: "USDC",
    onchainPlanId: "pro",
    price: PRICE_MICRO,
    currency: "USDC",
    billingPeriod: "monthly" as const,
    company,
  });
  /** The consent `payer` signs for this team's "Pro" for `company` (default "acme"), at the app's clock. */
  const consentOf = (payer: MessageSigner, company = "acme") => signConsent(payer, consentTerms(company), now());
  const consents = new Map<string, Promise<PayerConsent | null>>();

  return {
    team,
    plan,
    payee,
    consentTerms,
    consentOf,
    /**
     * POST /subscriptions/activate for `company` (default "acme") with the legacy key, under `idempotencyKey`,
     * the payer's consent to it signed now on Solana and Stellar unless `options.consent` says otherwise.
     */
    activate: async (payer: MessageSigner, idempotencyKey: string, company = "acme", options: ActivateOptions = {}) => {
      // A retry under the same key sends the same request: the consent signed for the key's first call.
      if (!consents.has(idempotencyKey)) consents.set(idempotencyKey, network.family === "evm" ? Promise.resolve(null) : consentOf(payer, company));
      const consent = options.consent !== undefined ? options.consent : await consents.get(idempotencyKey)!;
      return t.call("POST", "/subscriptions/activate", {
        token: team.keys.legacy,
        headers: { "Idempotency-Key": idempotencyKey },
        body: {
          planId: "pro",
          paymentAccount: payer.address,
          company: { id: company },
          subscriberEmail: `billing@${company}.test`,
          ...(consent ? { payerConsent: consent } : {}),
        },
      });
    },
    revokeMandate: (mandateId: string) =>
      t.call("POST", "/mandates/revoke", { token: team.keys.legacy, body: { mandateId, reason: "customer asked", revokedBy: "support@acme.test" } }),
    mandateStatus: (mandateId: string) => t.call("GET", `/mandates/${mandateId}/status`, { token: team.keys.legacy }),
    /** The scan and every job it queues, at the app's clock, as the scheduled runner does. */
    async runRenewals(options: DrainOptions = {}) {
      const queued = await queueDueRenewals(t.deps.subscriptions, now());
      return { queued, ...(await drainJobs(t, {}, options)) };
    },
    /** The readers below name a company by its external id (default "acme"). */
    subscription: async (company = "acme") =>
      (
        await sql`select s.* from subscriptions s join companies c on c.id = s.company_id
                 where s.team_id = ${team.teamId} and c.external_id = ${company}`
      )[0]!,
    mandate: async (company = "acme") =>
      (
        await sql`select m.* from mandates m join companies c on c.id = m.company_id
                 where m.team_id = ${team.teamId} and c.external_id = ${company}`
      )[0]!,
    invoices: async (company = "acme") => [
      ...(await sql<{ status: string; total: bigint; amount_paid: bigint; paid_at: Date | null }[]>`
        select i.status, i.total, i.amount_paid, i.paid_at from invoices i join companies c on c.id = i.company_id
        where i.team_id = ${team.teamId} and c.external_id = ${company} order by i.created_at, i.id`),
    ],
    /** The chain operations of the company's subscriptions, oldest first. */
    charges: async (company = "acme") => [
      ...(await sql<{ kind: string; status: string; amount: string; reference: string; tx_hash: string | null; failure_reason: string | null }[]>`
        select ch.kind, ch.status, ch.amount, ch.reference, ch.tx_hash, ch.failure_reason
        from subscription_charges ch join subscriptions s on s.id = ch.subscription_id join companies c on c.id = s.company_id
        where ch.team_id = ${team.teamId} and c.external_id = ${company} order by ch.created_at, ch.id`),
    ],
    /** The payments recorded for the company's invoices: one per landed pull. */
    payments: async (company = "acme") => [
      ...(await sql<{ tx_hash: string; amount: string }[]>`
        select p.tx_hash, p.amount from payments p join invoices i on i.id = p.invoice_id join companies c on c.id = i.company_id
        where p.team_id = ${team.teamId} and c.external_id = ${company} order by p.created_at, p.id`),
    ],
    companyPlan: async (company = "acme") =>
      (await sql`select active_plan_id from companies where team_id = ${team.teamId} and external_id = ${company}`)[0]!.active_plan_id as
        | string
        | null,
  };
}
