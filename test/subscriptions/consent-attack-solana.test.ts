/**
 * The cross-company attack on Solana (litesvm; test/helpers/consent-attack.ts): the payer's consent names the
 * company and is spent once, one token account pays one live subscription (its one SPL delegate is shared with our
 * operator by every team), and the mandate's remainingAmount is the delegate's amount left at every step.
 */
import { test } from "bun:test";
import { PublicKey } from "@solana/web3.js";
import { runConsentAttack } from "../helpers/consent-attack";
import { solanaSigner } from "../helpers/payer-consent";
import { usdc } from "../helpers/chains/solana-subscriptions";
import { solanaSubscriptionService } from "../helpers/subscriptions";

const { chain, service, t } = await solanaSubscriptionService({ balance: usdc(1_000), approved: usdc(500) });
const wallet = solanaSigner(chain.payer);

/** The service's clock and the ledger's move together. */
function syncLedger() {
  const clock = chain.ledger.svm.getClock();
  clock.unixTimestamp = BigInt(Math.floor(t.clock.now() / 1000));
  chain.ledger.svm.setClock(clock);
}
syncLedger();

test("another company's activation with this wallet is refused and pulls nothing; a replayed consent too; mandates equal the chain", async () => {
  await runConsentAttack({
    service,
    network: chain.network.id,
    payer: wallet,
    consent: (company) => service.consentOf(wallet, company),
    balance: async (address) => chain.balance(new PublicKey(address)),
    chainRemaining: async () => chain.tokenAccount(chain.payer.publicKey)?.delegatedAmount ?? 0n,
    async elapse(ms) {
      t.clock.advance(ms);
      syncLedger();
    },
    sharedAccount: true,
  });
}, 60_000);
