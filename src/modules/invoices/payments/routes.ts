/** POST /dashboard/invoices/{id}/payments: pay an invoice by submitting an on-chain transfer (billing:write). */
import { Elysia } from "elysia";
import type { Sql } from "../../../db/client";
import type { Clock } from "../../../lib/clock";
import type { ChainPool } from "../../../chains/pool";
import type { ChainRegistry } from "../../../lib/networks";
import { authPlugin, type AuthDeps } from "../../../http/auth";
import { data } from "../../../http/envelope";
import { CodedErrorBody, ErrorBody, ValidationErrorBody } from "../../../http/error-schemas";
import { requestState } from "../../../http/request-context";
import { InvoiceParams } from "../schemas";
import { actorOf } from "../../audit/repo";
import { PaymentProofSubmit, ProofPending, ProofRecorded } from "./schemas";
import { submitProof } from "./submit";
import { PROOF_DESCRIPTION } from "./docs";

export type ProofRouteDeps = AuthDeps & { sql: Sql; clock: Clock; settlement: { registry: ChainRegistry; pool: ChainPool } };

export function proofRoutes(deps: ProofRouteDeps) {
  const proofDeps = { sql: deps.sql, registry: deps.settlement.registry, pool: deps.settlement.pool };
  return new Elysia().use(authPlugin(deps)).post(
    "/dashboard/invoices/:id/payments",
    async ({ principal, params, body, request, status }) => {
      const actor = actorOf(principal, requestState(request).requestId);
      const answer = await submitProof(proofDeps, { tenant: principal, actor, now: new Date(deps.clock.now()) }, params.id, body);
      return answer.kind === "paid" ? { data: answer.body } : status(202, { data: answer.body });
    },
    {
      access: true,
      params: InvoiceParams,
      body: PaymentProofSubmit,
      response: {
        200: data(ProofRecorded),
        202: data(ProofPending),
        400: ValidationErrorBody,
        404: ErrorBody,
        409: CodedErrorBody,
        422: CodedErrorBody,
      },
      detail: { tags: ["Dashboard: billing"], summary: "Pay an invoice with an on-chain transfer", description: PROOF_DESCRIPTION },
    },
  );
}
