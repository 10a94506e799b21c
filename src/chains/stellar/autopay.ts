/**
 * What the payer has authorized, as the chain says now. Stellar's allowance is one amount with a last ledger:
 * there is no per-period limit (periodAllowance and periodSeconds are null), so the service enforces the
 * plan's amount per period itself. The SAC's `allowance()` already answers 0 past the last ledger; the last
 * ledger itself is read from the allowance's storage entry and turned into a time.
 */
import type { AutopayState } from "../subscription-types";
import { allowanceLedgerKey, readAllowanceValue } from "./sac";
import { assertNetwork, type StellarContext } from "./soroban-context";
import { readAmount } from "./soroban-simulate";

/**
 * Ledgers close about every 5 to 6 seconds; counting 5 puts the estimate at or before the real expiry, which
 * is the safe side for dunning (ask for re-approval early rather than late).
 */
export const SECONDS_PER_LEDGER = 5;

export async function readAutopay(ctx: StellarContext): Promise<AutopayState> {
  await assertNetwork(ctx);
  const spender = ctx.operator.publicKey();
  const [remaining, balance, stored, latest] = await Promise.all([
    readAmount(ctx, { fn: "allowance", from: ctx.payer, spender }),
    readAmount(ctx, { fn: "balance", id: ctx.payer }),
    ctx.server.getLedgerEntries(allowanceLedgerKey(ctx.contractId, ctx.payer, spender)),
    ctx.server.getLatestLedger(),
  ]);
  const entry = stored.entries[0];
  const allowance = entry ? readAllowanceValue(entry.val) : null;
  const closeTime = Number(latest.closeTime) || Math.floor(Date.now() / 1000);
  // Spendable through liveUntilLedger inclusive: it stops when that ledger has closed.
  const expiresAt = allowance ? closeTime + (allowance.liveUntilLedger - latest.sequence) * SECONDS_PER_LEDGER : null;
  return { ok: true, installed: remaining > 0n, periodAllowance: null, periodSeconds: null, remaining, expiresAt, balance };
}
