/** Typed access to refunds (sql/queries/refund_*). */
import { queries, runOne, type Db } from "../../../db/queries";
import type { Tenant } from "../../../lib/tenant";
import type { RefundRow } from "../rows";

const Q = queries(["refund_insert"]);

export interface RefundInsert {
  id: string;
  invoiceId: string;
  /** micro-units of the invoice currency */
  amount: bigint;
  tokenSymbol: string;
  tokenAmount: bigint;
  network: string;
  txHash: string;
  senderWallet: string;
  recipientWallet: string;
  reason: string;
  blockNumber: bigint;
}

/** The refund's row; undefined when its transaction already proved a refund (the replay guard). */
export const insertRefund = (db: Db, t: Tenant, r: RefundInsert, now: Date) =>
  runOne<RefundRow>(db, Q.refund_insert, [
    r.id,
    t.teamId,
    t.environment,
    r.invoiceId,
    now,
    {
      amount: r.amount.toString(),
      token_symbol: r.tokenSymbol,
      token_amount: r.tokenAmount.toString(),
      network: r.network,
      tx_hash: r.txHash,
      sender_wallet: r.senderWallet,
      recipient_wallet: r.recipientWallet,
      reason: r.reason,
      block_number: r.blockNumber.toString(),
    },
  ]);
