/**
 * Submitting a zkTLS proof: verified against the configured attestors first, stored only when it verifies, once. A
 * proof whose claim context names a `requestNonce` queues, in the transaction that stores it, the early capture of
 * the tenant's escrow reservation of that nonce whose consent named the proof's provider (docs/escrow.md#early-capture-on-a-proof-of-delivery).
 */
import { apiError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import type { Tenant } from "../../lib/tenant";
import type { Sql } from "../../db/client";
import { enqueueJob } from "../../jobs/enqueue";
import { nonceOfContext, verifyReclaimProof } from "./compute";
import { findCompanyId, insertProof } from "./repo";
import type { ZktlsProofRow } from "./rows";
import type { ZktlsProofSubmission } from "./schemas";

export interface ZktlsPolicy {
  attestors: readonly string[];
  minSignatures: number;
  maxAgeSeconds: number;
}

export interface SubmitContext {
  db: Sql;
  tenant: Tenant;
  policy: ZktlsPolicy;
  now: Date;
}

/** Verifies, then stores: a refusal (400 proof_refused), an unknown company (404) and a replay (409) store nothing. */
export async function submitProof(ctx: SubmitContext, body: ZktlsProofSubmission): Promise<ZktlsProofRow> {
  if (ctx.policy.attestors.length === 0) {
    throw apiError("proof_refused", "zkTLS proofs are not accepted: no attestor is configured", {
      reason: "no_attestors",
      "body.proof": "The service trusts no attestor (ZKTLS_ATTESTORS is unset)",
    });
  }
  const verdict = await verifyReclaimProof(body.proof, { ...ctx.policy, nowMs: ctx.now.getTime() });
  if (!verdict.ok) throw apiError("proof_refused", "Proof refused", { reason: verdict.reason, "body.proof": verdict.detail });
  let companyId: string | null = null;
  if (body.company) {
    companyId = await findCompanyId(ctx.db, ctx.tenant, body.company.id);
    if (!companyId) throw apiError("not_found", `No company ${body.company.id}`);
  }
  const requestNonce = nonceOfContext(body.proof.claimData.context);
  const row = await ctx.db.begin(async (tx) => {
    const stored = await insertProof(
      tx,
      ctx.tenant,
      { id: newId("zkp"), companyId, identifier: verdict.identifier, signers: verdict.signers, createdAt: ctx.now },
      body.proof.claimData,
    );
    if (stored && requestNonce)
      await enqueueJob(tx, "escrow.capture_on_proof", {
        ...ctx.tenant,
        proofId: stored.id,
        identifier: stored.identifier,
        companyId,
        requestNonce,
        provider: body.proof.claimData.provider,
      });
    return stored;
  });
  if (!row) throw apiError("proof_replayed", "This proof was submitted before");
  return row;
}
