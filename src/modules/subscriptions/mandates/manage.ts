/**
 * Mandates (BILLING.md "Mandates"): POST /mandates/revoke, GET /mandates/{id}/status, and the expiry job.
 * Revoking stops every pull at once (the renewal job refuses a non-ACTIVE mandate before asking the chain)
 * and, where the family lets the operator, on chain too: the EVM contract's token is revoked by a job queued
 * in the same transaction (retried until the chain answers). Solana and Stellar allowances can only be
 * withdrawn by the payer; the service stops pulling.
 */
import { apiError } from "../../../lib/errors";
import type { Tenant } from "../../../lib/tenant";
import { recordAudit } from "../../audit/repo";
import { emitEvent } from "../../webhooks/emit";
import { revokeMandateRow } from "../cancellation/cancel";
import type { SubscriptionDeps, ServiceContext } from "../context";
import type { MandateRow } from "../rows";
import { presentMandate } from "../present";
import { endMandate, findMandate, listExpiringMandates, lockMandate } from "../repo";

export interface RevokeRequest {
  mandateId: string;
  reason: string | null;
  revokedBy: string | null;
}

export async function revokeMandate({ deps, tenant, actor, now }: ServiceContext, r: RevokeRequest): Promise<MandateRow> {
  return deps.sql.begin(async (tx) => {
    const mandate = await lockMandate(tx, tenant, r.mandateId);
    if (!mandate) throw apiError("mandate_not_found", `No mandate ${r.mandateId}`, { "body.mandateId": `No mandate ${r.mandateId}` });
    if (mandate.status !== "ACTIVE")
      throw apiError("mandate_not_active", `Mandate ${mandate.id} is already ${mandate.status}`, {
        "body.mandateId": `Is ${mandate.status}`,
        status: mandate.status,
      });
    const revoked = await revokeMandateRow({ deps, tx, tenant, actor, now }, mandate, r.revokedBy ?? actor.id, r.reason);
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "mandate.revoke",
      resourceType: "mandate",
      resourceId: mandate.id,
      details: { reason: r.reason, revokedBy: r.revokedBy },
    });
    return revoked;
  });
}

export async function mandateStatus(deps: SubscriptionDeps, tenant: Tenant, id: string) {
  const mandate = await findMandate(deps.sql, tenant, id);
  if (!mandate) throw apiError("not_found", `No mandate ${id}`);
  return presentMandate(mandate);
}

const EXPIRY_BATCH = 500;

/** ACTIVE -> EXPIRED for every mandate whose expiresAt has passed, each in its own short transaction. */
export async function expireMandates(deps: SubscriptionDeps, now: Date): Promise<number> {
  let expired = 0;
  for (const due of await listExpiringMandates(deps.sql, now, EXPIRY_BATCH)) {
    const tenant: Tenant = { teamId: due.team_id, environment: due.environment as Tenant["environment"] };
    const ended = await deps.sql.begin(async (tx) => {
      const row = await endMandate(tx, tenant, due.id, { end: { status: "EXPIRED", reason: "expires_at_passed" }, now });
      if (row) await emitEvent({ tx, tenant }, "mandate.expired", { lazy: () => presentMandate(row) }, { at: now });
      return row;
    });
    if (ended) expired++;
  }
  return expired;
}
