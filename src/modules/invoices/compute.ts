/**
 * Invoice arithmetic, pure: a line's amounts from its quantity, unit amount and tax rate, and an invoice's
 * totals as the sums of its lines. The one rounding (half away from zero, src/lib/money) is applied once
 * per line, to its tax; totals are never rounded, so they always equal the sums the lines show. The same
 * formulas are CHECK constraints on invoice_lines and a deferred trigger on invoices (migration 00018).
 */
import { lineTax, TAX_RATE_DENOMINATOR } from "../../lib/money";
import type { LineKind } from "./rows";

/** The highest tax rate a line takes, 100%: in tax-rate units, and as the percentage the API reads and shows. */
export const MAX_TAX_RATE = TAX_RATE_DENOMINATOR;
export const MAX_TAX_PERCENT = 100;

export interface LineInput {
  description: string;
  quantity: bigint;
  /** micro-units; negative for a discount or credit line */
  unitAmount: bigint;
  /** 1/10000 of a percent (7.25% = 72500n) */
  taxRate: bigint;
  kind?: LineKind;
  planId?: string | null;
  periodStart?: Date | null;
  periodEnd?: Date | null;
}

export interface PricedLine extends Required<Omit<LineInput, "planId" | "periodStart" | "periodEnd">> {
  planId: string | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  lineSubtotal: bigint;
  lineTax: bigint;
  lineTotal: bigint;
}

export interface Totals {
  subtotal: bigint;
  taxTotal: bigint;
  total: bigint;
}

export function priceLine(input: LineInput): PricedLine {
  const lineSubtotal = input.quantity * input.unitAmount;
  const tax = lineTax(lineSubtotal, input.taxRate);
  return {
    description: input.description,
    quantity: input.quantity,
    unitAmount: input.unitAmount,
    taxRate: input.taxRate,
    kind: input.kind ?? "item",
    planId: input.planId ?? null,
    periodStart: input.periodStart ?? null,
    periodEnd: input.periodEnd ?? null,
    lineSubtotal,
    lineTax: tax,
    lineTotal: lineSubtotal + tax,
  };
}

export function sumLines(lines: readonly { lineSubtotal: bigint; lineTax: bigint }[]): Totals {
  let subtotal = 0n;
  let taxTotal = 0n;
  for (const line of lines) {
    subtotal += line.lineSubtotal;
    taxTotal += line.lineTax;
  }
  return { subtotal, taxTotal, total: subtotal + taxTotal };
}

/** What the lines ask, tax included: the invoice's total of these lines (each priced as above, then summed). */
export const linesTotal = (lines: readonly LineInput[]): bigint => sumLines(lines.map(priceLine)).total;

/** What is still owed: never negative (a credit past it goes to the customer's balance). */
export const outstandingOf = (total: bigint, paid: bigint, credited: bigint): bigint => {
  const left = total - paid - credited;
  return left > 0n ? left : 0n;
};
