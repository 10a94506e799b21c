/** POST /dashboard/invoices/{id}/payments: pay an invoice by submitting an on-chain transfer (billing:write). */
import { Elysia } from "elysia";
import type { Sql } from "../../db/client";
import type { Clock } from "../../lib/clock";
import type { ChainPool } from "../../chains/pool";
import type { ChainRegistry } from "../../chains/registry";
import { authPlugin, type AuthDeps } from "../../http/auth";
import { data } from "../../http/envelope";
import { CodedErrorBody, ErrorBody, ValidationErrorBody } from "../../http/error-schemas";
import { requestState } from "../../http/request-context";
import { InvoiceParams } from "./routes";
import { actorOf } from "../audit/repo";
import { PaymentProofSubmit, ProofPending, ProofRecorded } from "./proof-model";
import { submitProof } from "./proof-submit";

export type ProofRouteDeps = AuthDeps & { sql: Sql; clock: Clock; settlement: { registry: ChainRegistry; pool: ChainPool } };

export const PROOF_DESCRIPTION = `Pays an ISSUED or OVERDUE invoice with a transfer already made on chain, verified by the service's chain workers as checkout payments are: a successful, confirmed transfer of the invoice currency's token on the network (\`network\`: default the invoice's; required, and then kept, for an invoice that has none; another network than the invoice's is a 400), to the team's settlement wallet on that network (none, or one that does not take the currency: 409 \`settlement_wallet_missing\`), of at least the amount outstanding (in token units: exact for tokens of 6 or more decimals, rounded up below 6; a native EVM coin must send exactly that much), in a transaction that never proved a payment or a refund (409 \`payment_replayed\`; submitting the hash that paid this very invoice again answers 200 as the first time).

- 200 \`{data: {invoice, payment}}\`: proven. The payment is recorded and applied in one transaction with the invoice locked: PAID once nothing is outstanding (\`invoice.paid\` is sent); an overpayment is applied up to the outstanding amount and the rest goes to the company's credit balance. The payment keeps the transfer's exact token units (\`tokenAmount\`); it counts on the invoice rounded down to the micro-unit.
- 202 \`{data: {invoice, verification: {reason, detail}}}\`: not provable yet (\`not_final\`, \`not_found\`, \`rpc_unavailable\`, \`timeout\`, \`worker_crashed\`). Nothing is recorded; a job (\`invoices.verify_payment\`) verifies it again with exponential backoff for about 28 hours and records the payment once proven. What becomes of it is in the audit log (\`invoice.payment\`, or \`invoice.payment_refused\` with the reason). Submitting the hash again verifies it at once.
- 422 \`transaction_failed\`, \`wrong_token\`, \`wrong_recipient\`, \`amount_too_low\`, \`invalid_transaction\`: the transaction does not prove the payment; nothing is recorded.
- 409 \`invoice_not_payable\`: the invoice is a draft, void or already paid.`;

export function proofRoutes(deps: ProofRouteDeps) {
  const proofDeps = { sql: deps.sql, registry: deps.settlement.registry, pool: deps.settlement.pool };
  return new Elysia().use(authPlugin(deps)).post(
    "/dashboard/invoices/:id/payments",
    async ({ principal, params, body, request, status }) => {
      const actor = actorOf(principal, requestState(request).requestId);
      const answer = await submitProof(proofDeps, principal, actor, params.id, body, new Date(deps.clock.now()));
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
