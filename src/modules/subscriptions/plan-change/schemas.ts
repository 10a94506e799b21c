/**
 * POST /companies/plan (the spec's body and result, binding), its dashboard twin and the preview's answer:
 * the exact invoice the change would issue, in the invoice's own line shape.
 */
import { t, type Static } from "elysia";
import { formatMicro, formatTaxRate } from "../../../lib/money";
import { priceLine, sumLines } from "../../invoices/compute";
import { InvoiceLineItem } from "../../invoices/schemas";
import type { Quote } from "./quote";
import type { PlanChangeCommand } from "./steps";
import type { QuoteRef } from "./quotes";

const Text = (max: number, description?: string) => t.String({ minLength: 1, maxLength: max, ...(description ? { description } : {}) });

const ChangeFields = {
  planId: Text(128, "The plan to move to: our plan id, or its on-chain id on the subscription's network"),
  billingPeriod: t.Optional(
    t.Union([t.Literal("monthly"), t.Literal("yearly")], {
      description: "Default: the subscription's. A change of billing period starts a new period now",
    }),
  ),
  couponCode: t.Optional(Text(64, "Redeemed with the change; replaces the subscription's coupon")),
  effective: t.Optional(
    t.Union([t.Literal("now"), t.Literal("period_end")], {
      description:
        "Default now: the plan switches at once (a downgrade's unused time goes to the company's credit balance); period_end schedules the change for the current period's end",
    }),
  ),
};

export const PlanChangeBody = t.Object({
  ...ChangeFields,
  quoteId: t.Optional(
    Text(
      64,
      "A preview's quote (quote.id): the change prices at the quote's instant and charges exactly it, once, before quote.expiresAt; 409 quote_expired, quote_used or quote_stale otherwise. Without it the change prices at its own instant (pricedAt)",
    ),
  ),
  txHash: t.Optional(
    Text(128, "A transfer to the team's settlement wallet paying the proration invoice; without it the proration is pulled through the mandate"),
  ),
  customerName: t.Optional(Text(200, "The billing name on the proration invoice")),
  customerEmail: t.Optional(t.String({ format: "email", maxLength: 320, description: "Where the proration invoice goes" })),
});

export const PlanChangePreviewBody = t.Object(ChangeFields);

export const PlanChangeResult = t.Object(
  {
    data: t.Object({
      success: t.Literal(true),
      planId: t.String({ description: "The plan the company is on now; for a change at period end, the plan it moves to then" }),
      status: t.String({ description: "The subscription's status" }),
      currentPeriodEnd: t.String({ format: "date-time" }),
      effective: t.Union([t.Literal("now"), t.Literal("period_end")]),
      invoiceId: t.Union([t.String(), t.Null()], { description: "The proration invoice (PAID), or null when nothing was owed now" }),
      pricedAt: t.String({ format: "date-time", description: "The instant the change was priced at: the quote's, or the change's own" }),
      quoteId: t.Union([t.String(), t.Null()], { description: "The quote charged, or null: priced at the change's own instant" }),
    }),
  },
  {
    examples: [
      {
        data: {
          success: true,
          planId: "plan_pro",
          status: "ACTIVE",
          currentPeriodEnd: "2026-12-24T10:00:00.000Z",
          effective: "now",
          invoiceId: "in_2k9d",
          pricedAt: "2026-12-09T10:00:00.000Z",
          quoteId: "quo_7Hc2kQ9xLmP4rT8vW1yZ3bN5",
        },
      },
    ],
  },
);

const Micro = (description: string) =>
  t.String({ pattern: "^-?\\d+\\.\\d{6}$", description: `${description} (decimal string, six fractional digits)` });

const PREVIEW_EXAMPLE = {
  data: {
    kind: "upgrade",
    changed: true,
    effective: "now",
    currency: "USDC",
    credit: "5.000000",
    charge: "10.000000",
    net: "5.000000",
    creditToBalance: "0.000000",
    invoice: {
      lineItems: [
        {
          description: "Unused time on Basic (monthly) from 2026-12-09T10:00:00Z",
          quantity: 1,
          unitAmount: "-5.000000",
          taxRate: "0.0000",
          lineSubtotal: "-5.000000",
          lineTax: "0.000000",
          lineTotal: "-5.000000",
          kind: "proration",
        },
        {
          description: "Remaining time on Pro (monthly) from 2026-12-09T10:00:00Z",
          quantity: 1,
          unitAmount: "10.000000",
          taxRate: "0.0000",
          lineSubtotal: "10.000000",
          lineTax: "0.000000",
          lineTotal: "10.000000",
          kind: "proration",
        },
      ],
      subtotal: "5.000000",
      taxTotal: "0.000000",
      total: "5.000000",
      balanceApplied: "0.000000",
    },
    planId: "plan_pro",
    billingPeriod: "monthly",
    currentPeriodStart: "2026-11-24T10:00:00.000Z",
    currentPeriodEnd: "2026-12-24T10:00:00.000Z",
    quote: { id: "quo_7Hc2kQ9xLmP4rT8vW1yZ3bN5", pricedAt: "2026-12-09T10:00:00.000Z", expiresAt: "2026-12-09T10:15:00.000Z" },
  },
};

export const PlanChangePreview = t.Object(
  {
    data: t.Object({
      kind: t.Union([t.Literal("upgrade"), t.Literal("downgrade"), t.Literal("same")]),
      changed: t.Boolean({ description: "false: the plan, billing period and coupon are the current ones; nothing would happen" }),
      effective: t.Union([t.Literal("now"), t.Literal("period_end")]),
      currency: t.String(),
      credit: Micro("Unused time on the current terms, before tax"),
      charge: Micro("The new terms until the period's end (a whole new period on a change of billing period), before tax"),
      net: Micro("The priced lines' sum, tax included; negative: owed to the customer"),
      creditToBalance: Micro("What the company's credit balance would gain (a negative net)"),
      invoice: t.Union([
        t.Object({
          lineItems: t.Array(InvoiceLineItem),
          subtotal: Micro("Sum of the lines' subtotals"),
          taxTotal: Micro("Sum of the lines' taxes"),
          total: Micro("What the invoice asks"),
          balanceApplied: Micro("Drawn from the company's credit balance (the credit line)"),
        }),
        t.Null(),
      ]),
      planId: t.String({ description: "The plan after the change" }),
      billingPeriod: t.String(),
      currentPeriodStart: t.String({ format: "date-time" }),
      currentPeriodEnd: t.String({ format: "date-time", description: "For a change at period end: when it takes effect" }),
      quote: t.Object(
        {
          id: t.String({ description: "Give it as quoteId to the change: it charges exactly this preview, once" }),
          pricedAt: t.String({ format: "date-time", description: "The instant this preview prices" }),
          expiresAt: t.String({ format: "date-time", description: "15 minutes after pricedAt" }),
        },
        { description: "This preview, recorded: the change given its id charges exactly these amounts" },
      ),
    }),
  },
  { examples: [PREVIEW_EXAMPLE] },
);

export const commandOf = (body: Static<typeof PlanChangeBody>): PlanChangeCommand => ({
  planId: body.planId,
  billingPeriod: body.billingPeriod ?? null,
  couponCode: body.couponCode ?? null,
  effective: body.effective ?? null,
  quoteId: body.quoteId ?? null,
  txHash: body.txHash ?? null,
  customerName: body.customerName ?? null,
  customerEmail: body.customerEmail ?? null,
});

export function presentPreview(q: Quote, recorded: QuoteRef): Static<typeof PlanChangePreview>["data"] {
  const c = q.change;
  const priced = c.invoice?.lines.map(priceLine) ?? [];
  const totals = sumLines(priced);
  const after = c.scheduled ?? c.subscription;
  return {
    kind: c.kind,
    changed: c.changed,
    effective: c.effective,
    currency: q.sub.currency,
    credit: formatMicro(c.credit),
    charge: formatMicro(c.charge),
    net: formatMicro(c.net),
    creditToBalance: formatMicro(c.creditToBalance),
    invoice: c.invoice && {
      lineItems: priced.map((l) => ({
        description: l.description,
        quantity: Number(l.quantity),
        unitAmount: formatMicro(l.unitAmount),
        taxRate: formatTaxRate(l.taxRate),
        lineSubtotal: formatMicro(l.lineSubtotal),
        lineTax: formatMicro(l.lineTax),
        lineTotal: formatMicro(l.lineTotal),
        kind: l.kind,
      })),
      subtotal: formatMicro(totals.subtotal),
      taxTotal: formatMicro(totals.taxTotal),
      total: formatMicro(c.invoice.total),
      balanceApplied: formatMicro(c.invoice.balanceApplied),
    },
    planId: after.planId,
    billingPeriod: after.billingPeriod,
    currentPeriodStart: after.periodStart.toISOString(),
    currentPeriodEnd: (c.scheduled ? c.scheduled.periodStart : c.subscription.periodEnd).toISOString(),
    quote: { id: recorded.id, pricedAt: recorded.pricedAt.toISOString(), expiresAt: recorded.expiresAt.toISOString() },
  };
}
