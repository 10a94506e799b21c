/**
 * Stellar subscriptions: the payer's token allowance on the asset's Stellar Asset Contract, pulled by the
 * service's operator (SUBSCRIPTION_STELLAR_OPERATOR_SECRET) through the network's Soroban RPC
 * (NetworkConfig.sorobanRpcUrl).
 *
 * - Stellar has no NFT standard the SAC knows of: the subscription token is the activation's reference
 *   itself (tokenId = reference). Activation is the first pull; a zero first charge (a trial) sends nothing
 *   and only checks that the approval exists (txHash "").
 * - revoke: `approve` needs the payer's authorization, so the operator cannot withdraw an allowance; it answers
 *   ok with amount 0 and no transaction, and pulls stop because the service stops making them. The payer
 *   can set the allowance to 0 from their wallet; an approval also lapses at its last ledger, which
 *   readAutopay reports as expiresAt so dunning asks for a new one in time.
 * - Idempotency: see pull.ts (the sequence rule) and reference-lookup.ts (finding a reference's pull).
 */
import type { AutopayParties, SubscriptionAdapter } from "../subscription-types";
import { readAutopay } from "./autopay";
import { pull } from "./pull";
import { referenceBytes } from "./reference";
import { findByReference } from "./reference-lookup";
import { refuse, settle } from "./refusal";
import { assertNetwork, DEFAULT_TIMING, resolveContext, type StellarContext, type StellarTiming } from "./soroban-context";
import { checkAllowance, readChainState } from "./soroban-state";

export function createStellarSubscriptions(overrides: Partial<StellarTiming> = {}): SubscriptionAdapter {
  const timing = { ...DEFAULT_TIMING, ...overrides };
  /** Activation and charge are the same pull; they differ only in the token they report. */
  const pullFor = (request: AutopayParties & { amount: bigint; reference: string }, tokenId: string) =>
    settle(async () => {
      const ctx = resolveContext(request, timing);
      const reference = referenceBytes(request.reference);
      if (request.amount === 0n) return noTransfer(ctx, tokenId);
      return pull(ctx, { amount: positive(request.amount), reference, tokenId });
    });
  return {
    readAutopay: (parties) => settle(() => readAutopay(resolveContext(parties, timing))),
    // The subscription token is the activation's reference.
    activate: (request) => pullFor(request, request.reference),
    charge: (request) => pullFor(request, request.tokenId),

    revoke: (request) =>
      settle(async () => {
        resolveContext(request, timing);
        return { ok: true as const, txHash: "", tokenId: request.tokenId, amount: 0n, blockNumber: 0n };
      }),

    lookup: (request) =>
      settle(async () => {
        const ctx = resolveContext(request, timing);
        const reference = referenceBytes(request.reference);
        await assertNetwork(ctx);
        return { ok: true as const, operation: await findByReference(ctx, reference, { tokenId: request.reference }) };
      }),
  };
}

/** Nothing to move: the approval must still be there, and the answer names the ledger that said so. */
async function noTransfer(ctx: StellarContext, tokenId: string) {
  await assertNetwork(ctx);
  const state = await readChainState(ctx);
  checkAllowance(state, 1n);
  return { ok: true as const, txHash: "", tokenId, amount: 0n, blockNumber: BigInt(state.latestLedger) };
}

function positive(amount: bigint): bigint {
  if (amount < 0n) refuse("reverted", "A charge cannot be negative");
  return amount;
}

export const stellarSubscriptions: SubscriptionAdapter = createStellarSubscriptions();
