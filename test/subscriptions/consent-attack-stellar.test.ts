/**
 * The cross-company attack on Stellar (the Soroban RPC double; test/helpers/consent-attack.ts): the payer's consent
 * names the company and is spent once, one account pays one live subscription (its one SAC allowance is shared with
 * our operator by every team), and the mandate's remainingAmount is the allowance left at every step.
 */
import { test } from "bun:test";
import { SECONDS_PER_LEDGER } from "../../src/chains/stellar/autopay";
import { runConsentAttack } from "../helpers/consent-attack";
import { stellarSigner } from "../helpers/payer-consent";
import { DAY_MS } from "../helpers/subscription-service";
import { stellarSubscriptionService } from "../helpers/subscriptions";

const UNIT = 10_000_000n; // the asset's 7 decimals
const { s, service, t } = await stellarSubscriptionService(1_000n * UNIT);
const wallet = stellarSigner(s.payer);
const operator = s.operator.publicKey();

test("another company's activation with this wallet is refused and pulls nothing; a replayed consent too; mandates equal the chain", async () => {
  await s.approve(200n * UNIT, { ledgers: (120 * DAY_MS) / 1000 / SECONDS_PER_LEDGER });
  await runConsentAttack({
    service,
    network: s.network.id,
    payer: wallet,
    consent: (company) => service.consentOf(wallet, company),
    balance: async (address) => s.double.balance(s.asset, address) ?? 0n,
    chainRemaining: async () => s.double.allowance(s.asset, s.payer.publicKey(), operator)?.amount ?? 0n,
    async elapse(ms) {
      t.clock.advance(ms);
      s.double.closeLedger(Math.round(ms / 1000 / SECONDS_PER_LEDGER));
    },
    sharedAccount: true,
  });
}, 60_000);
