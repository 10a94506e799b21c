/**
 * Raw ledger reads (getLedgerEntries): the operator's account (its sequence number) and the payer's
 * allowance entry (amount and last ledger). One request, so both come from the same ledger; beside it, the
 * latest ledger's close time, the network's clock.
 */
import { Keypair, xdr } from "@stellar/stellar-sdk";
import { refuse } from "./refusal";
import { allowanceLedgerKey, readAllowanceValue, type StoredAllowance } from "./sac";
import type { StellarContext } from "./soroban-context";

export interface ChainState {
  /** the ledger the RPC answered at */
  latestLedger: number;
  /** the operator account's current sequence number (the next transaction uses this + 1) */
  sequence: string;
  /** null when the payer never approved the operator (or the temporary entry was evicted after expiry) */
  allowance: StoredAllowance | null;
  /** unix seconds: when the latest ledger closed (the local clock where the RPC does not say) */
  closeTime: number;
}

const accountKey = (account: string) => xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(account).xdrPublicKey() }));

export async function readChainState(ctx: StellarContext): Promise<ChainState> {
  const operator = ctx.operator.publicKey();
  const [{ latestLedger, entries }, latest] = await Promise.all([
    ctx.server.getLedgerEntries(accountKey(operator), allowanceLedgerKey(ctx.contractId, ctx.payer, operator)),
    ctx.server.getLatestLedger(),
  ]);
  let sequence: string | null = null;
  let allowance: StoredAllowance | null = null;
  for (const entry of entries) {
    if (entry.val.type === "account") sequence = entry.val.account.seqNum.toString();
    else if (entry.val.type === "contractData") allowance = readAllowanceValue(entry.val);
  }
  if (sequence === null) refuse("not_configured", "The Stellar operator account does not exist on this network");
  const closeTime = Number(latest.closeTime) || Math.floor(Date.now() / 1000);
  return { latestLedger, sequence, allowance, closeTime };
}

/** The payer-side verdict on an allowance before any transaction is built. */
export function checkAllowance(state: Pick<ChainState, "allowance" | "latestLedger">, amount: bigint): void {
  const { allowance, latestLedger } = state;
  if (!allowance) refuse("autopay_not_installed", "The payment account has not approved the service to pull this token");
  // Spendable through live_until_ledger inclusive, but a pull sent now lands in a later ledger than the one
  // read. (Past its last ledger the temporary entry is evicted and reads as never installed.)
  if (allowance.liveUntilLedger <= latestLedger) refuse("autopay_expired", "The payment account's approval has expired; it must approve again");
  if (allowance.amount < amount) refuse("insufficient_allowance", "The payment account's remaining approval is lower than the charge");
}
