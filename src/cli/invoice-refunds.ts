/**
 * `invoice refund <in_…> --team … --amount … --reason … --tx … --to …`: POST /invoices/{id}/refunds for an
 * operator, through the same service (refundInvoice): the transaction is verified on the invoice's network by
 * the chain workers (a pool of one, started for the command) before anything is recorded, and the refund, its
 * credit note, webhook and audit entry (actor `operator`) are written in one transaction. Prints the API's Refund.
 */
import { ChainPool } from "../chains/pool";
import { refundInvoice } from "../modules/invoices/refunds/refund";
import { presentRefund } from "../modules/invoices/present";
import { OPERATOR } from "../modules/teams/roles";
import { ENVIRONMENT_OPTION, TEAM_OPTION, tenant } from "./args";
import { command } from "./command";

export const invoiceRefundCommands = [
  command({
    name: "invoice refund",
    summary: "Record a refund of a paid invoice once its on-chain transaction is verified (as POST /invoices/{id}/refunds)",
    positional: "invoice",
    options: {
      invoice: { value: "<in_…>", help: "The invoice refunded", required: true },
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      amount: { value: "<decimal>", help: "Decimal amount of the invoice currency: 12.5 = 12.500000 USDC", required: true },
      reason: { value: "<text>", help: "1 to 500 characters; also the credit note's reason", required: true },
      tx: { value: "<hash>", help: "The refund's transaction on the invoice's network, sent from the team's settlement wallet", required: true },
      to: { value: "<wallet>", help: "The customer's wallet the refund was sent to", required: true },
    },
    parse: (a) => ({
      tenant: tenant(a),
      invoiceId: a.invoice!,
      request: { amount: a.amount!, reason: a.reason!, txHash: a.tx!, recipientWallet: a.to! },
    }),
    run: async (ctx, i) => {
      const pool = new ChainPool({ size: 1, jobTimeoutMs: ctx.config.chainJobTimeoutMs });
      try {
        const { refund, invoice } = await refundInvoice(
          { sql: ctx.sql, registry: ctx.config.chains, pool },
          { tenant: i.tenant, actor: OPERATOR, now: new Date(ctx.now) },
          i.invoiceId,
          i.request,
        );
        return presentRefund(refund, invoice.currency);
      } finally {
        await pool.close();
      }
    },
  }),
];
