/** The request model of POST /dashboard/invoices/{id}/send. */
import { t } from "elysia";

export const InvoiceSendRequest = t.Object(
  {
    channel: t.Optional(
      t.Union([t.Literal("email"), t.Literal("webhook")], {
        description: "email (default): over SMTP with the PDF attached; webhook: the invoice's invoice.issued message to the team's endpoints",
      }),
    ),
    to: t.Optional(
      t.String({
        format: "email",
        maxLength: 320,
        description: "Email only: the recipient, one address (no list, no display name); default the invoice's customer email",
      }),
    ),
  },
  { $id: "InvoiceSendRequest", examples: [{ channel: "email", to: "accounts@acme.example" }] },
);
