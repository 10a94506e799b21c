/** POST /dashboard/invoices/{id}/send: send an issued invoice again, by email or to the webhook endpoints (role billing:write). */
import { InvoiceParams } from "../schemas";
import { Elysia, t } from "elysia";
import type { ChainRegistry } from "../../../lib/networks";
import type { Sql } from "../../../db/client";
import { authPlugin, type AuthDeps } from "../../../http/auth";
import { data } from "../../../http/envelope";
import { CodedErrorBody, ErrorBody, ValidationErrorBody } from "../../../http/error-schemas";
import { requestState } from "../../../http/request-context";
import type { Clock } from "../../../lib/clock";
import { actorOf } from "../../audit/repo";
import { presentDelivery } from "../present";
import { InvoiceDelivery } from "../schemas";
import { sendInvoice } from "./send";
import { InvoiceSendRequest } from "./schemas";

export type DeliveryRouteDeps = AuthDeps & { sql: Sql; clock: Clock; config: { chains: ChainRegistry; smtpUrl: string | undefined } };

const DESCRIPTION = `Queues the invoice's sending and answers 202 with the new delivery rows (they also appear in the invoice's \`deliveries\`). Only an issued, overdue or paid invoice can be sent (409 \`invoice_not_sendable\`). The body may be left out.

- **email** (default): to \`to\`, else the invoice's customer email (400 when it has none, or when it is not one address: a list such as \`a@x.example, b@y.example\` would reach every address on it), from the operator's address (\`SMTP_FROM\`, else \`invoices@<SMTP host>\`) in the seller's name with the seller's email as Reply-To, with the PDF attached and, when the service has \`PUBLIC_BASE_URL\`, a signed download link valid 90 days. Needs \`SMTP_URL\` (else 409 \`delivery_channel_unavailable\`). Retried by the job queue: 12 attempts over about 16 hours; a 5xx refusal of the recipient or message fails it at once.
- **webhook**: the invoice's \`invoice.issued\` message (the same \`webhook-id\`, so a receiver that already has it can recognise it) to every enabled endpoint subscribed to \`invoice.issued\`, one delivery row per endpoint mirroring its webhook delivery (409 \`delivery_channel_unavailable\` when there is none). If no endpoint was subscribed when the invoice was issued, the message is written now, dated at the issue, carrying the invoice as it is now.`;

export function invoiceDeliveryRoutes(deps: DeliveryRouteDeps) {
  return new Elysia().use(authPlugin(deps)).post(
    "/dashboard/invoices/:id/send",
    async ({ principal, params, body, request, set }) => {
      const tenant = { teamId: principal.teamId, environment: principal.environment };
      const rows = await deps.sql.begin((tx) =>
        sendInvoice(
          {
            tx,
            tenant,
            actor: actorOf(principal, requestState(request).requestId),
            chains: deps.config.chains,
            now: new Date(deps.clock.now()),
            emailEnabled: deps.config.smtpUrl !== undefined,
          },
          params.id,
          body ?? {},
        ),
      );
      set.status = 202;
      return { data: rows.map(presentDelivery) };
    },
    {
      access: true,
      params: InvoiceParams,
      body: t.Optional(InvoiceSendRequest),
      response: { 202: data(t.Array(InvoiceDelivery)), 400: ValidationErrorBody, 404: ErrorBody, 409: CodedErrorBody },
      detail: {
        tags: ["Invoices"],
        summary: "Send an invoice again, by email or to the webhook endpoints (role billing:write)",
        description: DESCRIPTION,
      },
    },
  );
}
