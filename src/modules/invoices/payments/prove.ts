/**
 * Paying an invoice by submitting the hash of an on-chain transfer, verified the way checkout payments are
 * (the chain worker pool, src/chains): a confirmed transfer of the invoice currency's token on the network,
 * to the team's settlement wallet there, of at least the outstanding amount, through a transaction that never
 * proved a payment or a refund before. The proof is the team's claim that this transfer pays this invoice
 * (a plain token transfer names no invoice): it is taken from the dashboard and the CLI, never from a client.
 *
 *   check:  the invoice (ISSUED or OVERDUE), the network (the invoice's, or the one given for an invoice
 *           that has none), the hash's spelling, the replay guard, the settlement wallet; nothing locked;
 *   verify: in the worker pool, outside any transaction (a chain call never holds a database lock);
 *   record: one transaction, the transaction's lock then the invoice's (src/modules/transaction-claims/repo.ts): the payment row
 *           (its unique (network, tx_hash) key the last replay guard) and applyPayment (PAID when nothing is
 *           left outstanding; an overpayment goes to the company's credit balance).
 * A refusal that time can change (not final, not found, endpoint down) records nothing and answers
 * `pending`; payments/jobs.ts keeps verifying it. Any other refusal is the error code of the checkout payments.
 */
import type { Sql } from "../../../db/client";
import { type Db } from "../../../db/queries";
import type { ChainPool } from "../../../chains/pool";
import type { ChainRegistry } from "../../../lib/networks";
import { HASH_FORMAT, hashOfNoFamily, normalizeTxHash } from "../../../chains/addresses";
import { lockTransaction, transactionUse } from "../../transaction-claims/repo";
import { RETRYABLE_REASONS, type NetworkConfig, type PaymentProof, type TokenConfig } from "../../../chains/types";
import { apiError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import { formatMicro, microToTokenCeil, tokenToMicroFloor } from "../../../lib/money";
import type { Tenant } from "../../../lib/tenant";
import type { Actor } from "../../audit/repo";
import { insertInvoicePayment, paymentsOfTransaction } from "../../payments/repo";
import { refusalCode } from "../../payments/refusals";
import { lockOr404 } from "../lifecycle/transitions";
import type { InvoiceRow } from "../rows";
import { findInvoice, findSettlementWallet } from "../repo";
import { applyPayment } from "./settle";
import { settlingNetwork } from "../settings/manage";
import type { OperationContext } from "../../operation-context";

export interface ProofDeps {
  sql: Sql;
  registry: ChainRegistry;
  pool: ChainPool;
}

export interface ProofInput {
  txHash: string;
  /** default: the invoice's network; required when it has none */
  network?: string | null;
}

export type ProofOutcome =
  | { kind: "paid"; invoice: InvoiceRow; paymentId: string }
  /** not provable yet: nothing recorded */
  | { kind: "pending"; invoice: InvoiceRow; network: string; txHash: string; reason: string; detail: string };

/**
 * The proof's own fields, before the invoice is read: a hash no configured network could have, or a network
 * that is not one of this environment's, is a 400 naming the field, never a 404 or a 409 about the invoice.
 */
function checkProofFields(registry: ChainRegistry, tenant: Tenant, input: ProofInput): void {
  const problem = hashOfNoFamily(registry.list(), input.txHash);
  if (problem) throw apiError("validation_failed", "Validation failed", { "body.txHash": problem });
  if (input.network) settlingNetwork(registry, tenant, input.network, "body.network");
}

const replayed = (what: string) => apiError("payment_replayed", `This transaction already proved ${what}`);

export async function proveInvoicePayment(
  deps: ProofDeps,
  { tenant, actor, now }: Omit<OperationContext, "tx">,
  invoiceId: string,
  input: ProofInput,
): Promise<ProofOutcome> {
  checkProofFields(deps.registry, tenant, input);
  const found = await findInvoice(deps.sql, tenant, invoiceId);
  if (!found) throw apiError("not_found", `No invoice ${invoiceId}`);
  const { network, token } = networkOf(deps.registry, tenant, found, input.network ?? null);
  const txHash = normalizeTxHash(network.family, input.txHash);
  if (!txHash) throw apiError("validation_failed", "Validation failed", { "body.txHash": `Expected ${HASH_FORMAT[network.family]}` });

  const earlier = await earlierUse(deps.sql, tenant, found, network.id, txHash);
  if (earlier) return earlier;

  if (found.status !== "ISSUED" && found.status !== "OVERDUE")
    throw apiError("invoice_not_payable", `Invoice ${found.number} is ${found.status}; only an issued or overdue invoice takes a payment proof`);
  const wallet = await findSettlementWallet(deps.sql, tenant, network.id);
  if (!wallet || (wallet.tokens.length > 0 && !wallet.tokens.includes(token.symbol)))
    throw apiError(
      "settlement_wallet_missing",
      `No settlement wallet takes ${token.symbol} on ${network.id}; set one with PUT /dashboard/settlement-wallets/${network.id}`,
    );
  const amount = microToTokenCeil(found.amount_outstanding, token.decimals);
  if (!amount.ok) throw apiError("invoice_not_payable", `${formatMicro(found.amount_outstanding)} ${token.symbol}: ${amount.expected}`);

  const verdict = await deps.pool.verifyPayment({ network, token, txHash, recipient: wallet.wallet, amount: amount.value });
  if (!verdict.ok) {
    if (RETRYABLE_REASONS.has(verdict.reason))
      return { kind: "pending", invoice: found, network: network.id, txHash, reason: verdict.reason, detail: verdict.detail };
    throw apiError(refusalCode(verdict.reason), verdict.detail);
  }
  return record(deps.sql, { tenant, actor, now }, invoiceId, { network, token, txHash, proof: verdict });
}

/** The network a proof is verified on, and the invoice currency's token there; 400 naming body.network. */
function networkOf(
  registry: ChainRegistry,
  tenant: Tenant,
  invoice: InvoiceRow,
  given: string | null,
): { network: NetworkConfig; token: TokenConfig } {
  const invalid = (expected: string) => apiError("validation_failed", "Validation failed", { "body.network": expected });
  // An invoice settles on one chain (its refunds are proven there): once it has one, a proof names it or nothing.
  if (invoice.network && given && given !== invoice.network) throw invalid(`Expected ${invoice.network}: invoice ${invoice.number} settles there`);
  const id = invoice.network ?? given;
  if (!id) throw invalid(`Required: invoice ${invoice.number} names no network yet`);
  const network = settlingNetwork(registry, tenant, id, "body.network");
  const token = network.tokens.find((t) => t.symbol === invoice.currency);
  if (!token) throw invalid(`${network.id} has no ${invoice.currency} token; the invoice is in ${invoice.currency}`);
  return { network, token };
}

export interface VerifiedPayment {
  network: NetworkConfig;
  token: TokenConfig;
  txHash: string;
  proof: PaymentProof;
}

/**
 * What a hash already proved, checked before the chain call and again under its lock: a retry of the proof that
 * paid this invoice answers as the first one did (whichever of two concurrent submissions won); a hash that
 * proved anything else is refused. Null when the hash proved nothing yet.
 */
async function earlierUse(db: Db, tenant: Tenant, invoice: InvoiceRow, network: string, txHash: string): Promise<ProofOutcome | null> {
  const earlier = (await paymentsOfTransaction(db, network, txHash))[0];
  if (earlier?.invoice_id === invoice.id && earlier.team_id === tenant.teamId && earlier.environment === tenant.environment)
    return { kind: "paid", invoice, paymentId: earlier.id };
  if (earlier) throw replayed("a payment");
  if ((await transactionUse(db, network, txHash)) === "refund") throw replayed("a refund");
  return null;
}

/**
 * Records a verified transfer as the invoice's payment and applies it, the invoice locked. An invoice paid by
 * another transfer while this one was verified still records it, wholly as excess (BILLING.md: an overpayment
 * is never refused; the customer's money has moved): the company's credit balance, or the payment row.
 */
const record = (sql: Sql, c: { tenant: Tenant; actor: Actor; now: Date }, invoiceId: string, v: VerifiedPayment): Promise<ProofOutcome> =>
  sql.begin((tx) => recordProvenPayment({ ...c, tx }, invoiceId, v));

/** record's transaction, for a caller that creates the invoice in the same one (a plan change paid by a txHash). */
export async function recordProvenPayment(
  ctx: { tx: Db; tenant: Tenant; actor: Actor; now: Date },
  invoiceId: string,
  v: VerifiedPayment,
): Promise<ProofOutcome> {
  const { tx, ...c } = ctx;
  // First, before the invoice's lock (src/modules/transaction-claims/repo.ts): a refund or payment of this hash recorded while the
  // chain was asked, or being recorded now, is seen here.
  await lockTransaction(tx, v.network.id, v.txHash);
  const invoice = await lockOr404(ctx, invoiceId);
  const earlier = await earlierUse(tx, c.tenant, invoice, v.network.id, v.txHash);
  if (earlier) return earlier;
  if (invoice.status === "DRAFT" || invoice.status === "VOID")
    throw apiError("invoice_not_payable", `Invoice ${invoice.number} is ${invoice.status} and cannot take a payment`);
  const transfer = v.proof.transfers[0]!;
  const id = newId("pay");
  const inserted = await insertInvoicePayment(tx, c.tenant, {
    id,
    invoiceId,
    network: v.network.id,
    txHash: v.txHash,
    transferIndex: transfer.transferIndex,
    amount: transfer.amount,
    tokenSymbol: v.token.symbol,
    payer: transfer.payer,
    blockNumber: v.proof.blockNumber,
    blockHash: v.proof.blockHash,
    at: c.now,
  });
  if (!inserted) throw replayed("a payment"); // another submission of this hash won the race
  // What the transfer is worth on the invoice, rounded down to the micro-unit; the row keeps its token units.
  const worth = tokenToMicroFloor(transfer.amount, v.token.decimals);
  if (!worth.ok) throw apiError("invalid_transaction", `The transfer's amount cannot be recorded: ${worth.expected}`);
  const applied = await applyPayment(ctx, invoiceId, { id, amount: worth.value, network: v.network.id });
  return { kind: "paid", invoice: applied.invoice, paymentId: id };
}
