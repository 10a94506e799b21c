/**
 * What a Solana payer has authorized: the operator as SPL delegate of the payer's associated token account
 * for the token, up to the delegated amount. That amount is the lifetime cap: each pull by the delegate
 * lowers it, and at zero the token program clears the delegate. There is no per-period allowance and no
 * expiry on chain (the service enforces both). A token account has one delegate and a new approve
 * overwrites it, so all of a payer's subscriptions through this service share one cap per token account,
 * and approving anyone else stops them all.
 */
import { PublicKey } from "@solana/web3.js";
import type { AutopayParties, AutopayState, SubscriptionRefusal } from "../subscription-types";
import { refuseOperation } from "../subscription-types";
import { associatedTokenAddress, type TokenAccount } from "./spl";

/** The request's parties as keys, with the two token accounts every pull moves between. */
export interface Parties {
  payer: PublicKey;
  payee: PublicKey;
  mint: PublicKey;
  decimals: number;
  payerAccount: PublicKey;
  payeeAccount: PublicKey;
}

/** The key an address names, when it is a Solana address spelled canonically; null otherwise. */
export const solanaKey = (address: string): PublicKey | null => {
  try {
    const key = new PublicKey(address);
    return key.toBase58() === address ? key : null;
  } catch {
    return null;
  }
};

export function resolveParties({ token, payer, payee }: AutopayParties): Parties | SubscriptionRefusal {
  if (!token.mint)
    return refuseOperation("not_configured", `${token.symbol} is not an SPL token: Solana subscriptions pull SPL tokens through a delegate.`);
  const [payerKey, payeeKey, mint] = [solanaKey(payer), solanaKey(payee), solanaKey(token.mint)];
  if (!payerKey || !payeeKey || !mint) return refuseOperation("autopay_not_installed", "The payer, payee or token mint is not a Solana address.");
  return {
    payer: payerKey,
    payee: payeeKey,
    mint,
    decimals: token.decimals,
    payerAccount: associatedTokenAddress(payerKey, mint),
    payeeAccount: associatedTokenAddress(payeeKey, mint),
  };
}

/** The payer's account is theirs and names the operator as its delegate. */
const delegatesTo = (account: TokenAccount | null, parties: Parties, operator: PublicKey): account is TokenAccount =>
  account !== null && account.owner.equals(parties.payer) && account.delegate?.equals(operator) === true;

export function autopayState(account: TokenAccount | null, parties: Parties, operator: PublicKey): AutopayState {
  const installed = delegatesTo(account, parties, operator);
  return {
    ok: true,
    installed,
    periodAllowance: null,
    periodSeconds: null,
    remaining: installed ? account.delegatedAmount : 0n,
    expiresAt: null,
    balance: account?.owner.equals(parties.payer) ? account.amount : 0n,
  };
}

/** Why a pull of `amount` would fail on chain, read from the payer's account before anything is sent. */
export function refusePull(account: TokenAccount | null, parties: Parties, operator: PublicKey, amount: bigint): SubscriptionRefusal | null {
  if (!delegatesTo(account, parties, operator))
    return refuseOperation(
      "autopay_not_installed",
      "The payer's token account does not name the service as its delegate (never approved, revoked, or approved to someone else).",
    );
  if (account.frozen) return refuseOperation("reverted", "The payer's token account is frozen by the token's issuer; nothing was sent.");
  if (account.delegatedAmount < amount)
    return refuseOperation("insufficient_allowance", "What is left of the payer's approved amount does not cover this charge.");
  if (account.amount < amount) return refuseOperation("insufficient_balance", "The payer's token balance does not cover this charge.");
  return null;
}
