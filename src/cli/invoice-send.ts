/**
 * `invoice send`: POST /dashboard/invoices/{id}/send for an operator, over the same service function. It
 * queues the sending; a running service (or `npm run worker`) sends it. Email needs SMTP_URL in this
 * command's environment too (the same configuration as the service's).
 */
import { presentDelivery } from "../modules/invoices/present";
import { sendInvoice } from "../modules/invoices/deliveries/send";
import { OPERATOR } from "../modules/teams/roles";
import { ENVIRONMENT_OPTION, TEAM_OPTION, oneOf, tenant } from "./args";
import { command, UsageError } from "./command";

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+$/;

export const invoiceSendCommands = [
  command({
    name: "invoice send",
    summary: "Send an issued, overdue or paid invoice again: by email (default) or to the webhook endpoints subscribed to invoice.issued",
    options: {
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      id: { value: "<invoice id>", help: "in_…", required: true },
      channel: { value: "email|webhook", help: "Default email" },
      to: { value: "<email>", help: "Email only: the recipient (default: the invoice's customer email)" },
    },
    parse: (a) => {
      if (a.to !== undefined && (a.to.length > 320 || !EMAIL.test(a.to))) throw new UsageError("--to must be an email address");
      return { tenant: tenant(a), id: a.id!, channel: oneOf("channel", a.channel, ["email", "webhook"] as const), to: a.to };
    },
    run: async (ctx, i) => {
      const rows = await ctx.sql.begin((tx) =>
        sendInvoice(
          {
            tx,
            tenant: i.tenant,
            actor: OPERATOR,
            chains: ctx.config.chains,
            now: new Date(ctx.now),
            emailEnabled: ctx.config.smtpUrl !== undefined,
          },
          i.id,
          { ...(i.channel ? { channel: i.channel } : {}), ...(i.to !== undefined ? { to: i.to } : {}) },
        ),
      );
      return rows.map(presentDelivery);
    },
  }),
];
