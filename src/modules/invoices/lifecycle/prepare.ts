/**
 * An invoice input checked and resolved into what a draft stores: the header (customer, currency, network,
 * terms) and the priced lines. Every limit the database holds (migration 00018's CHECK constraints, int8
 * columns) is checked here first, so any caller (routes, CLI, checkout settlement, renewals) gets a 400
 * naming the field, never a constraint error. Field names are the API body's (`body.lineItems[2].quantity`).
 */
import { networkAllowedIn } from "../../../lib/networks";
import { apiError } from "../../../lib/errors";
import { MAX_MICRO } from "../../../lib/money";
import { DAY_MS } from "../../../lib/period";
import { checkCurrencyAmount } from "../../catalog/currency";
import type { InvoiceContext } from "./context";
import { MAX_TAX_PERCENT, MAX_TAX_RATE, priceLine, sumLines, type LineInput, type PricedLine, type Totals } from "../compute";
import { findCompanyByRef, findInvoiceSettings, type InvoiceHeader } from "../repo";

export const DEFAULT_PAYMENT_TERMS_DAYS = 30;
export const MAX_PAYMENT_TERMS_DAYS = 365;
export const MAX_LINES = 200;
export const MAX_QUANTITY = 1_000_000_000n;
/** Text limits, in characters (code points), as the columns hold them. */
export const TEXT_LIMITS = { lineDescription: 500, customerName: 200, customerEmail: 320, customerWallet: 128, description: 2000 } as const;
/** Metadata is free-form; its JSON text is bounded so an invoice stays a document, not a store. */
export const MAX_METADATA_BYTES = 16_384;

/** What an invoice is made from; every field but currency and lines is optional. */
export interface InvoiceInput {
  currency: string;
  lines: readonly LineInput[];
  /** our company id or the integrator's; its email, wallet and name fill the customer fields left out */
  companyId?: string | null;
  customerName?: string | null;
  customerEmail?: string | null;
  customerWallet?: string | null;
  network?: string | null;
  planId?: string | null;
  description?: string | null;
  metadata?: Record<string, unknown>;
  /** default: the tenant's invoice settings (30 days without any) */
  paymentTermsDays?: number;
}

export interface PreparedInvoice {
  header: InvoiceHeader;
  lines: PricedLine[];
  totals: Totals;
}

/** When an invoice issued at `issuedAt` with these terms falls due (the one rule, for invoices and documents). */
export const dueDateOf = (issuedAt: Date, termsDays: number): Date => new Date(issuedAt.getTime() + termsDays * DAY_MS);

/** Length in characters (code points), as the text columns count it; JS `length` counts UTF-16 units. */
export const characters = (text: string) => [...text].length;
/** A company's own text, cut to what the invoice column holds (companies' columns are wider). */
const clip = (text: string | null | undefined, limit: number) => (text == null ? null : [...text].slice(0, limit).join(""));
const within = (value: bigint) => value <= MAX_MICRO && value >= -MAX_MICRO;

/** Every problem with the input's plain fields, by body field (empty when none). */
function fieldProblems(input: InvoiceInput): Record<string, string> {
  const problems: Record<string, string> = {};
  if (input.lines.length > MAX_LINES) problems["body.lineItems"] = `Expected at most ${MAX_LINES} line items`;
  for (const [i, line] of input.lines.slice(0, MAX_LINES).entries()) {
    const at = `body.lineItems[${i}]`;
    const length = characters(line.description);
    if (length < 1 || length > TEXT_LIMITS.lineDescription || line.description.trim() === "")
      problems[`${at}.description`] = `Expected 1 to ${TEXT_LIMITS.lineDescription} characters, not all whitespace`;
    if (line.quantity < 1n || line.quantity > MAX_QUANTITY) problems[`${at}.quantity`] = `Expected an integer from 1 to ${MAX_QUANTITY}`;
    if (!within(line.unitAmount)) problems[`${at}.unitAmount`] = "Expected an amount within the invoice range (about 9.2 trillion)";
    if (line.taxRate < 0n || line.taxRate > MAX_TAX_RATE) problems[`${at}.taxRate`] = `Expected a percentage from 0 to ${MAX_TAX_PERCENT}`;
  }
  for (const [field, limit] of [
    ["customerName", TEXT_LIMITS.customerName],
    ["customerEmail", TEXT_LIMITS.customerEmail],
    ["customerWallet", TEXT_LIMITS.customerWallet],
    ["description", TEXT_LIMITS.description],
  ] as const) {
    const value = input[field];
    if (value != null && characters(value) > limit) problems[`body.${field}`] = `Expected at most ${limit} characters`;
  }
  const terms = input.paymentTermsDays;
  if (terms !== undefined && (!Number.isInteger(terms) || terms < 0 || terms > MAX_PAYMENT_TERMS_DAYS))
    problems["body.paymentTermsDays"] = `Expected an integer from 0 to ${MAX_PAYMENT_TERMS_DAYS}`;
  if (input.metadata !== undefined && new TextEncoder().encode(JSON.stringify(input.metadata)).length > MAX_METADATA_BYTES)
    problems["body.metadata"] = `Expected at most ${MAX_METADATA_BYTES} bytes of JSON`;
  return problems;
}

/** The priced lines and totals, or the fields whose amounts leave the invoice range. */
function priceAll(lines: readonly LineInput[]): { lines: PricedLine[]; totals: Totals; problems: Record<string, string> } {
  const priced = lines.map(priceLine);
  const problems: Record<string, string> = {};
  for (const [i, line] of priced.entries())
    if (!within(line.lineSubtotal) || !within(line.lineTotal))
      problems[`body.lineItems[${i}].quantity`] = "Expected quantity x unitAmount (with tax) within the invoice range (about 9.2 trillion)";
  const totals = sumLines(priced);
  if (!within(totals.subtotal) || !within(totals.taxTotal) || !within(totals.total))
    problems["body.lineItems"] = "Expected line items whose sums stay within the invoice range (about 9.2 trillion)";
  else if (totals.total < 0n) problems["body.lineItems"] = "Expected line items whose total is not negative (discounts cannot exceed the charges)";
  return { lines: priced, totals, problems };
}

const refuse = (problems: Record<string, string>) => {
  if (Object.keys(problems).length > 0) throw apiError("validation_failed", "Validation failed", problems);
};

/** Checks and resolves an input into the header and priced lines a draft stores; one 400 names every bad field. */
export async function prepareInvoice(c: Pick<InvoiceContext, "tx" | "tenant" | "chains">, input: InvoiceInput): Promise<PreparedInvoice> {
  const { tx, tenant, chains } = c;
  refuse(fieldProblems(input));
  const { lines, totals, problems } = priceAll(input.lines);
  const currency = checkCurrencyAmount(chains, tenant.environment, input.currency, null);
  if (!currency.ok) problems["body.currency"] = currency.expected;
  else
    for (const [i, line] of lines.entries()) {
      const fits = checkCurrencyAmount(chains, tenant.environment, currency.symbol, line.lineTotal < 0n ? -line.lineTotal : line.lineTotal);
      if (!fits.ok) problems[`body.lineItems[${i}].unitAmount`] ??= fits.expected;
    }
  const network = input.network ?? null;
  if (network !== null && currency.ok) {
    const config = chains.get(network);
    if (!config || !networkAllowedIn(config, tenant.environment) || !config.tokens.some((t) => t.symbol === currency.symbol))
      problems["body.network"] = `Expected a network this environment settles ${currency.symbol} on`;
  }
  const company = input.companyId ? await findCompanyByRef(tx, tenant, input.companyId) : undefined;
  if (input.companyId && !company) problems["body.companyId"] = `No company ${input.companyId}`;
  refuse(problems);
  const settings = await findInvoiceSettings(tx, tenant);
  const header: InvoiceHeader = {
    currency: (currency as { symbol: string }).symbol,
    network,
    companyId: company?.id ?? null,
    customerName: input.customerName ?? clip(company?.name, TEXT_LIMITS.customerName),
    customerEmail: input.customerEmail ?? clip(company?.email, TEXT_LIMITS.customerEmail),
    customerWallet: input.customerWallet ?? clip(company?.wallet_address, TEXT_LIMITS.customerWallet),
    planId: input.planId ?? null,
    description: input.description ?? null,
    metadata: input.metadata ?? {},
    paymentTermsDays: input.paymentTermsDays ?? settings?.payment_terms_days ?? DEFAULT_PAYMENT_TERMS_DAYS,
  };
  return { header, lines, totals };
}
