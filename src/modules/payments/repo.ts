/** Typed access to payment links, checkout sessions and payments (sql/queries/payment_*, checkout_session_*). */
import { queries, run, runOne, type Db } from "../../db/queries";
import { addressKey } from "../../chains/addresses";
import type { NetworkConfig } from "../../chains/types";
import type { SessionStatus } from "./schemas";
import type { CheckoutSessionRow, PaymentLinkRow } from "./rows";
import { type Tenant } from "../../lib/tenant";

const Q = queries([
  "payment_insert_for_invoice",
  "payment_link_insert",
  "payment_link_find_by_id",
  "payment_link_list_recent",
  "checkout_session_insert",
  "checkout_session_find_by_id",
  "checkout_session_lock_by_id",
  "checkout_session_list_recent",
  "checkout_session_set_status",
  "checkout_session_list_due",
  "checkout_session_touch",
  "payment_insert",
  "payment_find_by_tx",
  "company_add_on_add",
  "settlement_wallet_owner",
]);

/** A row as the one jsonb record an insert takes: bigint as its decimal text (JSON has no bigint). */
const record = (row: { credit_amount: bigint | null }) => ({ ...row, credit_amount: row.credit_amount?.toString() ?? null });

export const insertPaymentLink = (db: Db, row: Omit<PaymentLinkRow, "active" | "created_at">) =>
  runOne<PaymentLinkRow>(db, Q.payment_link_insert, [record(row) as never]) as Promise<PaymentLinkRow>;

export const findPaymentLink = (db: Db, t: Tenant, id: string) =>
  runOne<PaymentLinkRow>(db, Q.payment_link_find_by_id, [t.teamId, t.environment, id]);
export const listPaymentLinks = (db: Db, t: Tenant, limit: number) =>
  run<PaymentLinkRow>(db, Q.payment_link_list_recent, [t.teamId, t.environment, limit]);

export const insertCheckoutSession = (
  db: Db,
  row: Omit<CheckoutSessionRow, "status" | "tx_hash" | "failure_reason" | "failure_detail" | "paid_at" | "updated_at">,
) => runOne<CheckoutSessionRow>(db, Q.checkout_session_insert, [record(row) as never]) as Promise<CheckoutSessionRow>;

export const findCheckoutSession = (db: Db, t: Tenant, id: string) =>
  runOne<CheckoutSessionRow>(db, Q.checkout_session_find_by_id, [t.teamId, t.environment, id]);
export const lockCheckoutSession = (db: Db, t: Tenant, id: string) =>
  runOne<CheckoutSessionRow>(db, Q.checkout_session_lock_by_id, [t.teamId, t.environment, id]);
export const listCheckoutSessions = (db: Db, t: Tenant, limit: number) =>
  run<CheckoutSessionRow>(db, Q.checkout_session_list_recent, [t.teamId, t.environment, limit]);

export interface StatusChange {
  status: SessionStatus;
  txHash: string | null;
  failureReason?: string | null;
  failureDetail?: string | null;
  paidAt?: Date | null;
  customerWallet?: string | null;
  at: Date;
}

export const setSessionStatus = (db: Db, t: Tenant, id: string, c: StatusChange) =>
  runOne<CheckoutSessionRow>(db, Q.checkout_session_set_status, [
    t.teamId,
    t.environment,
    id,
    c.status,
    c.txHash,
    c.failureReason ?? null,
    c.failureDetail ?? null,
    c.paidAt ?? null,
    c.customerWallet ?? null,
    c.at,
  ]) as Promise<CheckoutSessionRow>;

export const touchSession = (db: Db, t: Tenant, id: string, at: Date) => run(db, Q.checkout_session_touch, [t.teamId, t.environment, id, at]);

export const listDueSessions = (db: Db, now: Date, limit: number) => run<CheckoutSessionRow>(db, Q.checkout_session_list_due, [now, limit]);

export interface PaymentInsert {
  id: string;
  sessionId: string;
  network: string;
  txHash: string;
  transferIndex: number;
  amount: bigint;
  tokenSymbol: string;
  payer: string;
  blockNumber: bigint;
  blockHash: string | null;
}

/** Null when this transfer already proved a payment (the replay guard's unique key). */
export const insertPayment = (db: Db, t: Tenant, p: PaymentInsert) =>
  runOne<{ id: string }>(db, Q.payment_insert, [
    p.id,
    t.teamId,
    t.environment,
    p.sessionId,
    p.network,
    p.txHash,
    p.transferIndex,
    p.amount.toString(),
    p.tokenSymbol,
    p.payer,
    p.blockNumber.toString(),
    p.blockHash,
  ]);

/** A payment of an invoice (a proof, a subscription's pull); null when this transfer already proved one. */
export const insertInvoicePayment = (db: Db, t: Tenant, p: Omit<PaymentInsert, "sessionId"> & { invoiceId: string; at: Date }) =>
  runOne<{ id: string }>(db, Q.payment_insert_for_invoice, [
    t.teamId,
    t.environment,
    p.at,
    {
      id: p.id,
      invoice_id: p.invoiceId,
      network: p.network,
      tx_hash: p.txHash,
      transfer_index: p.transferIndex,
      amount: p.amount.toString(),
      token_symbol: p.tokenSymbol,
      payer: p.payer,
      block_number: p.blockNumber.toString(),
      block_hash: p.blockHash,
    } as never,
  ]);

export const paymentsOfTransaction = (db: Db, network: string, txHash: string) =>
  run<{ id: string; checkout_session_id: string | null; invoice_id: string | null; team_id: string; environment: string }>(db, Q.payment_find_by_tx, [
    network,
    txHash,
  ]);

export const addAddOnToCompany = (db: Db, t: Tenant, companyId: string, planId: string) =>
  runOne(db, Q.company_add_on_add, [t.teamId, t.environment, companyId, planId]);

/** The tenant that receives at `wallet` on `network` as its settlement wallet (any team), if one does. */
export const settlementWalletOwner = (db: Db, network: NetworkConfig, wallet: string) =>
  runOne<{ team_id: string; environment: Tenant["environment"] }>(db, Q.settlement_wallet_owner, [network.id, addressKey(network.family, wallet)]);
