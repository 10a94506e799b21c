/**
 * The cross-company attack on anvil (test/helpers/consent-attack.ts): a wallet that consented to one company's
 * subscription cannot be made to pay for another company of the same team, a consent opens one subscription, and
 * the mandate's remainingAmount is what the contract still allows that subscription (its cap less what it spent).
 */
import { afterAll, test } from "bun:test";
import { anvilSubscriptionBed } from "../helpers/chains/anvil-subscriptions";
import { runConsentAttack } from "../helpers/consent-attack";
import { subscriptionService } from "../helpers/subscription-service";

// Room for the plan change's pull in the window the activation opened.
const bed = await anvilSubscriptionBed({ terms: { periodAllowance: 100_000_000n, cap: 1_000_000_000n } });
afterAll(() => bed.stop());
const service = await subscriptionService(bed.network, bed.operatorKeys, bed.payee);
const { t } = service;
t.clock.set((await bed.now()) * 1000);

test("another company's activation with this wallet is refused and pulls nothing; a replayed consent too; mandates equal the chain", async () => {
  await runConsentAttack({
    service,
    network: bed.network.id,
    payer: { address: bed.payer.address, signMessage: () => Promise.reject(new Error("EVM consents are typed data")) },
    consent: async (company) => (await bed.consent(bed.payer, company)).body,
    balance: (address) => bed.balanceOf(address as `0x${string}`),
    chainRemaining: async (company) => bed.chainRemaining((await service.subscription(company)).token_id),
    async elapse(ms) {
      await bed.elapse(ms / 1000);
      t.clock.set((await bed.now()) * 1000);
    },
    sharedAccount: false,
  });
}, 60_000);
