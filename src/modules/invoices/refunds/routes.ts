/** POST /invoices/{id}/refunds: record a refund proven on chain (refunds/refund.ts; decisions in refunds/docs.ts, models in refunds/schemas.ts and docs/invoices.md#refunds). */
import { Elysia } from "elysia";
import { CodedErrorBody, ErrorBody, ValidationErrorBody } from "../../../http/error-schemas";
import { authPlugin, type AuthDeps } from "../../../http/auth";
import { requestState } from "../../../http/request-context";
import { InvoiceParams } from "../schemas";
import type { Sql } from "../../../db/client";
import type { Clock } from "../../../lib/clock";
import { actorOf } from "../../audit/repo";
import type { RefundDeps } from "./refund";
import { refundInvoice } from "./refund";
import { presentRefund } from "../present";
import { REFUND_DESCRIPTION } from "./docs";
import { RefundCreate, RefundCreated } from "./schemas";

type RouteDeps = AuthDeps & { sql: Sql; clock: Clock; settlement: RefundDeps };

export function invoiceRefundRoutes(deps: RouteDeps) {
  return new Elysia().use(authPlugin(deps)).post(
    "/invoices/:id/refunds",
    async ({ principal, params, body, request, set }) => {
      const { refund, invoice } = await refundInvoice(
        deps.settlement,
        { tenant: principal, actor: actorOf(principal, requestState(request).requestId), now: new Date(deps.clock.now()) },
        params.id,
        { amount: body.amount, reason: body.reason, txHash: body.refundProof.txHash, recipientWallet: body.refundProof.recipientWallet },
      );
      set.status = 201;
      return { refund: presentRefund(refund, invoice.currency) };
    },
    {
      access: true,
      params: InvoiceParams,
      body: RefundCreate,
      response: { 201: RefundCreated, 400: ValidationErrorBody, 404: ErrorBody, 409: CodedErrorBody, 422: CodedErrorBody },
      detail: { tags: ["Invoices"], summary: "Record a refund of a paid invoice, proven on chain", description: REFUND_DESCRIPTION },
    },
  );
}
