/**
 * A payment proof not provable yet (not final, not seen by the node, endpoint down) is verified again by
 * the job queue until it is proven or refused for good, as the sweeper does for checkout sessions: the
 * customer's money has moved, so the service follows it through rather than asking a person to come back
 * after N confirmations (Stripe's bank payments likewise stay `processing` and settle later).
 *
 * Nothing is recorded until the transfer is proven. The job (`invoices.verify_payment`, one per invoice and
 * hash) is retried with the queue's exponential backoff (e^n seconds, at most 6.1 h apart): MAX_ATTEMPTS
 * spans about 28 hours, the reach of a reorg, an RPC outage or a slow finality. Its end is written to the
 * audit log, the operator's record of what became of a submission: `invoice.payment_refused` (a final
 * refusal, the invoice no longer payable, or still unproven at the last attempt); a proof records its
 * payment (`invoice.payment`) as a synchronous one does.
 */
import type { Sql } from "../../../db/client";
import { enqueueJob } from "../../../jobs/enqueue";
import type { TaskPayloads } from "../../../jobs/names";
import { ApiError } from "../../../lib/errors";
import type { Logger } from "../../../lib/logger";
import type { Tenant } from "../../../lib/tenant";
import { recordAudit, type Actor } from "../../audit/repo";
import { proveInvoicePayment, type ProofDeps } from "./prove";

export const VERIFY_TASK = "invoices.verify_payment";
export const MAX_ATTEMPTS = 14;

export type VerifyPayload = TaskPayloads[typeof VERIFY_TASK];

/** Queues the verification of a pending proof and audits the submission, in one transaction. */
export async function queueVerification(
  sql: Sql,
  tenant: Tenant,
  actor: Actor,
  p: { invoiceId: string; network: string; txHash: string; reason: string },
): Promise<void> {
  await sql.begin(async (tx) => {
    await enqueueJob(
      tx,
      VERIFY_TASK,
      { ...tenant, invoiceId: p.invoiceId, network: p.network, txHash: p.txHash, actor },
      // One pending job per invoice and hash: submitting it again restarts its schedule instead of adding one.
      { jobKey: `${VERIFY_TASK}:${tenant.teamId}:${tenant.environment}:${p.invoiceId}:${p.network}:${p.txHash}`, maxAttempts: MAX_ATTEMPTS },
    );
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "invoice.payment_pending",
      resourceType: "invoice",
      resourceId: p.invoiceId,
      details: { network: p.network, txHash: p.txHash, reason: p.reason },
    });
  });
}

export interface VerifyDeps {
  sql: Sql;
  settlement: Omit<ProofDeps, "sql">;
  logger: Logger;
  now(): Date;
}

/** The job: proven -> recorded; not yet -> throws (the queue retries); refused for good -> audited. */
export async function verifyQueuedProof(deps: VerifyDeps, payload: VerifyPayload, job: { attempt: number; maxAttempts: number }): Promise<void> {
  const tenant: Tenant = { teamId: payload.teamId, environment: payload.environment };
  const proofDeps = { sql: deps.sql, registry: deps.settlement.registry, pool: deps.settlement.pool };
  let outcome;
  try {
    outcome = await proveInvoicePayment(proofDeps, { tenant, actor: payload.actor, now: deps.now() }, payload.invoiceId, payload);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error; // a database failure: retried
    return refused(deps, tenant, payload, error.code, error.message);
  }
  if (outcome.kind === "paid") return;
  if (job.attempt < job.maxAttempts) throw new Error(`Invoice payment ${payload.txHash} not provable yet: ${outcome.reason} (${outcome.detail})`);
  return refused(deps, tenant, payload, outcome.reason, `Still unproven after ${job.attempt} attempts: ${outcome.detail}`);
}

async function refused(deps: VerifyDeps, tenant: Tenant, p: VerifyPayload, code: string, detail: string): Promise<void> {
  deps.logger.warn("invoice payment proof refused", { ...tenant, invoiceId: p.invoiceId, network: p.network, txHash: p.txHash, code });
  await recordAudit(deps.sql, {
    ...tenant,
    actor: p.actor,
    action: "invoice.payment_refused",
    resourceType: "invoice",
    resourceId: p.invoiceId,
    details: { network: p.network, txHash: p.txHash, code, detail },
  });
}
