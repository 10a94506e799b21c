/**
 * What a refund request asks to prove, in two steps. First its own fields, before the invoice is read (a
 * request wrong whatever the invoice is a 400 naming the field, never a 404 or a 409 about the invoice's
 * state): an amount greater than 0 with at most 6 fractional digits, a reason, a hash and a recipient some
 * configured network could have. Then against the invoice it refunds: the amount in the token's own units,
 * the transaction hash spelled as the invoice's network spells hashes, and a recipient of that network's
 * family. Every bad field of a step is named in one 400; nothing here touches the database or a chain.
 */
import { addressOfNoFamily, HASH_FORMAT, hashOfNoFamily, isValidAddress, normalizeTxHash } from "../../../chains/addresses";
import type { ChainRegistry } from "../../../lib/networks";
import type { NetworkConfig, TokenConfig } from "../../../chains/types";
import { ApiError, apiError } from "../../../lib/errors";
import { microToToken, parseMoney } from "../../../lib/money";
import type { InvoiceRow } from "../rows";

/** A refund as the API and the CLI receive it. */
export interface RefundRequest {
  /** decimal amount of the invoice currency: a JSON number written exactly, or a decimal string ("12.5" = 12.500000 USDC) */
  amount: unknown;
  reason: string;
  txHash: string;
  recipientWallet: string;
}

export interface RefundTerms {
  /** micro-units of the invoice currency */
  amount: bigint;
  /** the same amount in the token's smallest units: what the transaction must move at least */
  tokenAmount: bigint;
  reason: string;
  network: NetworkConfig;
  token: TokenConfig;
  /** canonical spelling (normalizeTxHash), so one transaction has one key */
  txHash: string;
  recipientWallet: string;
}

/** A refund's reason becomes its credit note's: readable text, as the refunds table's CHECK allows. */
export const REASON_MAX = 500;
export const REASON_EXPECTED = `Expected a string of 1 to ${REASON_MAX} characters, not all whitespace`;

export const notRefundable = (invoice: InvoiceRow, why: string) =>
  apiError("invoice_not_refundable", `Invoice ${invoice.number} cannot be refunded: ${why}`);

/** The network and token the invoice was paid in, which is where its refunds are proven. */
export function refundChain(registry: ChainRegistry, invoice: InvoiceRow): { network: NetworkConfig; token: TokenConfig } {
  // An invoice takes its network from its creator or its first payment: without one, nothing was paid.
  if (!invoice.network) throw notRefundable(invoice, "it has no payment to refund");
  const network = registry.get(invoice.network);
  if (!network) throw notRefundable(invoice, `its network ${invoice.network} is no longer configured`);
  const token = network.tokens.find((t) => t.symbol === invoice.currency);
  if (!token) throw notRefundable(invoice, `${network.id} no longer lists ${invoice.currency}`);
  return { network, token };
}

/** The 400 details a throwing field parser produced, or its value. */
function field<T>(problems: Record<string, string>, parse: () => T): T | undefined {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "validation_failed") throw error;
    Object.assign(problems, error.details);
    return undefined;
  }
}

/** The request's own fields (see the header); its amount in micro-units of the invoice currency. */
export function refundFields(registry: ChainRegistry, request: RefundRequest): { amount: bigint } {
  const problems: Record<string, string> = {};
  const amount = field(problems, () => parseMoney(request.amount, "body.amount"));
  if (amount === 0n) problems["body.amount"] = "Expected an amount greater than 0";
  // Checked here too, not only by the route's schema: the CLI reaches this without one.
  if (!/\S/.test(request.reason) || request.reason.length > REASON_MAX) problems["body.reason"] = REASON_EXPECTED;
  const hash = hashOfNoFamily(registry.list(), request.txHash);
  if (hash) problems["body.refundProof.txHash"] = hash;
  const recipient = addressOfNoFamily(registry.list(), request.recipientWallet);
  if (recipient) problems["body.refundProof.recipientWallet"] = recipient;
  if (Object.keys(problems).length > 0 || amount === undefined) throw apiError("validation_failed", "Validation failed", problems);
  return { amount };
}

/** The request read against the invoice, once refundFields passed: `amount` is what it returned. */
export function refundTerms(registry: ChainRegistry, invoice: InvoiceRow, request: RefundRequest, amount: bigint): RefundTerms {
  const { network, token } = refundChain(registry, invoice);
  const problems: Record<string, string> = {};
  let tokenAmount: bigint | undefined;
  // Refused, never rounded: a refund of 0.0000005 of a 6-decimal token would prove nothing exact.
  const units = microToToken(amount, token.decimals);
  if (units.ok) tokenAmount = units.value;
  else problems["body.amount"] = units.expected;
  const txHash = normalizeTxHash(network.family, request.txHash);
  if (!txHash) problems["body.refundProof.txHash"] = `Expected ${HASH_FORMAT[network.family]} (a transaction on ${network.id})`;
  if (!isValidAddress(network.family, request.recipientWallet))
    problems["body.refundProof.recipientWallet"] = `Not a valid ${network.family} address (the invoice was paid on ${network.id})`;
  if (Object.keys(problems).length > 0 || tokenAmount === undefined || !txHash) throw apiError("validation_failed", "Validation failed", problems);
  return { amount, tokenAmount, reason: request.reason, network, token, txHash, recipientWallet: request.recipientWallet };
}
