/** Submitting a payment proof, the route's and the CLI's one path (payments/prove.ts verifies, payments/jobs.ts follows up). */
import type { Static } from "elysia";
import { invoiceDetail } from "../present";
import type { ProofPending, ProofRecorded } from "./schemas";
import { queueVerification } from "./jobs";
import { proveInvoicePayment, type ProofDeps, type ProofInput } from "./prove";
import type { OperationContext } from "../../operation-context";

/**
 * The route's and the CLI's one path: verify, then the invoice with its payment (proven) or with what the
 * verification is waiting for (a job queued to finish it).
 */
export async function submitProof(
  deps: ProofDeps,
  { tenant, actor, now }: Omit<OperationContext, "tx">,
  invoiceId: string,
  input: ProofInput,
): Promise<{ kind: "paid"; body: Static<typeof ProofRecorded> } | { kind: "pending"; body: Static<typeof ProofPending> }> {
  const outcome = await proveInvoicePayment(deps, { tenant, actor, now }, invoiceId, input);
  const invoice = await invoiceDetail(deps.sql, tenant, outcome.invoice);
  if (outcome.kind === "paid") return { kind: "paid", body: { invoice, payment: invoice.payments.find((p) => p.id === outcome.paymentId)! } };
  await queueVerification(deps.sql, tenant, actor, { invoiceId, network: outcome.network, txHash: outcome.txHash, reason: outcome.reason });
  return { kind: "pending", body: { invoice, verification: { reason: outcome.reason, detail: outcome.detail } } };
}
