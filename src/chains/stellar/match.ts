/**
 * Pure reading of a decoded transaction's operations against what a payment must prove, kept apart from
 * Horizon and XDR plumbing so the refusal precedence is one small function.
 *
 * Counted: `payment`, and `pathPaymentStrictReceive`, whose `destAmount` is exactly what the destination
 * receives (the path only changes what the sender spends). Not counted: `pathPaymentStrictSend` (the
 * amount received is only bounded below by `destMin` and known from the result alone), `createAccount`,
 * `accountMerge`, claimable balances and Soroban transfers.
 */
import { extractBaseAddress, type Asset, type OperationRecord } from "@stellar/stellar-sdk/base";
import { refuse, type PaymentRefusal, type TokenConfig, type VerifiedTransfer } from "../types";
import { toStroops } from "./amount";

interface Want {
  token: TokenConfig;
  /** G... account; a muxed M... destination counts when its base account is this one */
  recipient: string;
  amount: bigint;
}

interface Movement {
  index: number;
  destination: string;
  asset: Asset;
  amount: bigint;
  source: string | undefined;
}

/**
 * Every counted operation that moves the accepted token to the recipient for at least the amount, in
 * operation order. When none does, the refusal names the closest miss: wrong token, then wrong
 * recipient, then too little.
 */
export function matchPayments(operations: readonly OperationRecord[], txSource: string, want: Want): VerifiedTransfer[] | PaymentRefusal {
  const ofToken = movements(operations).filter((m) => isToken(m.asset, want.token));
  if (ofToken.length === 0) return refuse("wrong_token", `The transaction moved none of the accepted ${want.token.symbol}`);
  const toRecipient = ofToken.filter((m) => m.destination === want.recipient || baseAccount(m.destination) === want.recipient);
  if (toRecipient.length === 0) return refuse("wrong_recipient", "The token was not sent to the expected recipient");
  const enough = toRecipient.filter((m) => m.amount >= want.amount);
  if (enough.length === 0) return refuse("amount_too_low", `The recipient received less than ${want.amount} stroops`);
  // The payer is reported as a plain G... account: a muxed id is a label inside that account.
  return enough.map((m) => ({ transferIndex: m.index, amount: m.amount, payer: baseAccount(m.source ?? txSource), payerDebited: true }));
}

function movements(operations: readonly OperationRecord[]): Movement[] {
  const out: Movement[] = [];
  for (const [index, op] of operations.entries()) {
    if (op.type === "payment") {
      out.push({ index, destination: op.destination, asset: op.asset, amount: toStroops(op.amount), source: op.source });
    } else if (op.type === "pathPaymentStrictReceive") {
      out.push({ index, destination: op.destination, asset: op.destAsset, amount: toStroops(op.destAmount), source: op.source });
    }
  }
  return out;
}

/** Native when the token is XLM; otherwise code AND issuer, both exact (anyone can issue "USDC"). */
function isToken(asset: Asset, token: TokenConfig): boolean {
  if (token.native) return asset.isNative();
  return !asset.isNative() && asset.getCode() === token.assetCode && asset.getIssuer() === token.assetIssuer;
}

/** M... -> its G... account; G... unchanged. */
function baseAccount(address: string): string {
  return address.startsWith("M") ? extractBaseAddress(address) : address;
}
