/**
 * A checkout session's claim on the transaction submitted to pay it (settle.ts): PENDING -> CONFIRMING with the
 * hash, and back when the transaction turns out to have paid another session.
 */
import type { Sql } from "../../db/client";
import type { OperationContext } from "../operation-context";
import { recordAudit } from "../audit/repo";
import type { CheckoutSessionRow } from "./rows";
import { lockCheckoutSession, setSessionStatus } from "./repo";
import { apiError } from "../../lib/errors";

/** The refusal of a session that can no longer be paid. */
export const closed = (session: CheckoutSessionRow) =>
  apiError(
    "checkout_session_closed",
    `Checkout session is ${session.status.toLowerCase()}${session.failure_reason ? ` (${session.failure_reason})` : ""}`,
  );

/**
 * PENDING -> CONFIRMING with this transaction. A CONFIRMING session may switch to another transaction (a
 * mistyped hash is corrected) until its deadline; after it, only the transaction submitted in time counts.
 */
export async function claim(sql: Sql, { tenant, actor, now }: Omit<OperationContext, "tx">, sessionId: string, txHash: string): Promise<void> {
  let closedSession: CheckoutSessionRow | null = null;
  await sql.begin(async (tx) => {
    const session = (await lockCheckoutSession(tx, tenant, sessionId))!;
    if (session.status === "PENDING" && session.expires_at <= now) {
      // Committed before the 409: the deadline passing is a fact, whatever the caller does next.
      closedSession = await setSessionStatus(tx, tenant, sessionId, { status: "EXPIRED", txHash: null, at: now });
      return;
    }
    if (session.status !== "PENDING" && session.status !== "CONFIRMING") {
      closedSession = session;
      return;
    }
    if (session.tx_hash === txHash) return;
    if (session.expires_at <= now) {
      closedSession = { ...session, status: "EXPIRED" }; // for new transactions; the one submitted in time still settles
      return;
    }
    await setSessionStatus(tx, tenant, sessionId, { status: "CONFIRMING", txHash, at: now });
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "checkout_session.submit",
      resourceType: "checkout_session",
      resourceId: sessionId,
      details: { txHash },
    });
  });
  if (closedSession) throw closed(closedSession);
}

/** CONFIRMING on `txHash` -> PENDING: the transaction proved another session's payment. */
export async function releaseClaim(
  sql: Sql,
  { tenant, now }: Pick<OperationContext, "tenant" | "now">,
  sessionId: string,
  txHash: string,
): Promise<void> {
  await sql.begin(async (tx) => {
    const session = await lockCheckoutSession(tx, tenant, sessionId);
    if (session?.status === "CONFIRMING" && session.tx_hash === txHash)
      await setSessionStatus(tx, tenant, sessionId, { status: "PENDING", txHash: null, at: now });
  });
}
