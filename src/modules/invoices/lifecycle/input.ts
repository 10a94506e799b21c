/**
 * What the dashboard and the CLI send to make or replace a draft, and to credit an invoice: the request
 * shapes (TypeBox, checked first by the route: a shape error is a 400 of its own, naming every such field),
 * then the rules, collected into one 400 `{error, details}` naming each field before anything is written (the
 * catalog's Problems; the service adds what needs the database, lifecycle/prepare.ts and lifecycle/manage.ts). Amounts are read by
 * the money module (exact decimal strings, or JSON numbers a double holds exactly).
 */
import { t, type Static } from "elysia";
import { ApiError, apiError } from "../../../lib/errors";
import { parseMoney, parseTaxRateField } from "../../../lib/money";
import { Problems } from "../../catalog/problems";
import type { InvoiceInput } from "./transitions";
import { MAX_METADATA_BYTES } from "./prepare";
import { MAX_TAX_PERCENT } from "../compute";
import type { CreditNoteInput } from "../credit-notes/create";

const Text = (max: number, description?: string) =>
  t.String({
    minLength: 1,
    maxLength: max,
    pattern: "\\S",
    "x-expected": `Expected a string of 1 to ${max} characters, not all whitespace`,
    description,
  });
// A 400 for these says what is expected in words (src/http/schema-errors.ts reads a union's branches), never
// TypeBox's "Expected union value".
const Nullable = <S extends ReturnType<typeof t.String>>(s: S) => t.Optional(t.Union([s, t.Null()]));
const Decimal = (description: string, digits = 6) =>
  t.Union([t.String({ maxLength: 64 }), t.Number()], {
    description,
    "x-expected": `Expected a decimal string with at most ${digits} fractional digits ("12.50"), or a JSON number a double holds exactly`,
  });

export const MAX_METADATA_KEYS = 50;
export const MAX_METADATA_KEY_LENGTH = 40;

export const InvoiceLineWrite = t.Object({
  description: Text(500),
  quantity: t.Integer({ minimum: 1, maximum: 1_000_000_000 }),
  unitAmount: Decimal(
    "Price of one unit: a decimal string with at most 6 fractional digits (or an exact JSON number). Negative for a discount; an item may be negative too (a credit or correction line, as Stripe allows)",
  ),
  taxRate: Decimal(`Tax percentage with at most 4 fractional digits, 0 to ${MAX_TAX_PERCENT} ("7.25")`, 4),
  kind: t.Optional(
    t.Union([t.Literal("item"), t.Literal("discount")], {
      description: "Default: discount for a negative unitAmount, else item. A discount lowers the total: its unitAmount must not be positive",
    }),
  ),
});

export const InvoiceWrite = t.Object(
  {
    currency: t.String({ minLength: 1, maxLength: 32, description: "A settlement token's symbol this environment settles (USDC)" }),
    lineItems: t.Array(InvoiceLineWrite, { maxItems: 200 }),
    companyId: Nullable(t.String({ minLength: 1, maxLength: 200, description: "Our comp_ id or yours" })),
    customerName: Nullable(t.String({ maxLength: 200 })),
    customerEmail: Nullable(t.String({ format: "email", maxLength: 320 })),
    customerWallet: Nullable(t.String({ minLength: 1, maxLength: 128 })),
    network: Nullable(t.String({ minLength: 1, maxLength: 64, description: "A network this environment settles the currency on" })),
    planId: Nullable(t.String({ minLength: 1, maxLength: 200, description: "A plan or add-on of this team and environment" })),
    description: Nullable(t.String({ maxLength: 2000 })),
    metadata: t.Optional(
      t.Record(t.String(), t.Unknown(), {
        description: `Free-form: at most ${MAX_METADATA_KEYS} keys of 1 to ${MAX_METADATA_KEY_LENGTH} characters, at most ${MAX_METADATA_BYTES} bytes as JSON`,
      }),
    ),
    paymentTermsDays: t.Optional(t.Integer({ minimum: 0, maximum: 365, description: "Default: the team's invoice settings, else 30" })),
    issue: t.Optional(t.Boolean({ description: "true: issue at once (a number is taken); default false (a draft)" })),
  },
  {
    $id: "InvoiceWrite",
    examples: [
      {
        currency: "USDC",
        customerEmail: "billing@acme.example",
        lineItems: [
          { description: "Seats", quantity: 3, unitAmount: "12.50", taxRate: "7.25" },
          { description: "Launch discount", quantity: 1, unitAmount: "-5", taxRate: "7.25" },
        ],
        paymentTermsDays: 14,
      },
    ],
  },
);
export type InvoiceWrite = Static<typeof InvoiceWrite>;

export const CreditNoteWrite = t.Object(
  {
    reason: Text(500),
    amount: Decimal("The credit, greater than 0: a decimal string with at most 6 fractional digits"),
    memo: Nullable(t.String({ maxLength: 2000 })),
    lineItems: t.Optional(
      t.Array(t.Object({ description: Text(500), amount: Decimal("Greater than 0") }), {
        minItems: 1,
        maxItems: 200,
        description: "Default: one line, the reason, for the whole amount; given lines must add up to amount",
      }),
    ),
  },
  { $id: "CreditNoteWrite", examples: [{ reason: "Service outage on March 3", amount: "10.00" }] },
);
export type CreditNoteWrite = Static<typeof CreditNoteWrite>;

/**
 * Reads one amount with the money module's field parsers (parseMoney, parseTaxRateField: the one rule for
 * strings and JSON numbers), recording a refusal under its field instead of throwing, so every bad field
 * of the request is reported at once.
 */
function amount(p: Problems, field: string, read: (path: string) => bigint): bigint {
  try {
    return read(p.path(field));
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "validation_failed") throw error;
    for (const [path, expected] of Object.entries(error.details)) p.details[path] ??= String(expected);
    return 0n;
  }
}

/** Greater than 0, at most 6 fractional digits. */
const positive = (p: Problems, field: string, value: unknown) =>
  amount(p, field, (path) => {
    const micro = parseMoney(value, path);
    if (micro === 0n) throw apiError("validation_failed", "Validation failed", { [path]: "Expected an amount greater than 0" });
    return micro;
  });

/** The metadata's keys; the values are free-form JSON, and its size is lifecycle/prepare.ts's rule (every caller's). */
function checkMetadata(p: Problems, metadata: Record<string, unknown> | undefined): void {
  if (!metadata) return;
  const keys = Object.keys(metadata);
  if (keys.length > MAX_METADATA_KEYS) p.add("metadata", `Expected at most ${MAX_METADATA_KEYS} keys`);
  for (const key of keys)
    if (key.length < 1 || key.length > MAX_METADATA_KEY_LENGTH)
      p.add(`metadata.${key}`, `Expected a key of 1 to ${MAX_METADATA_KEY_LENGTH} characters`);
}

/**
 * A draft's body as the service's input; every rule broken is a 400 naming its field. What needs the
 * database (the currency and network of the environment, the company, the plan) is checked by the service.
 */
export function invoiceInputOf(body: InvoiceWrite): InvoiceInput {
  const p = new Problems("body");
  const lines = body.lineItems.map((l, i) => {
    const unitAmount = amount(p, `lineItems[${i}].unitAmount`, (path) => parseMoney(l.unitAmount, path, { signed: true }));
    // A discount that adds to the total is a sign typed wrong, not a discount. Items stay free to be negative.
    if (l.kind === "discount" && unitAmount > 0n)
      p.add(`lineItems[${i}].unitAmount`, "Expected 0 or a negative amount on a discount line (a discount lowers the total)");
    return {
      description: l.description,
      quantity: BigInt(l.quantity),
      unitAmount,
      taxRate: amount(p, `lineItems[${i}].taxRate`, (path) => parseTaxRateField(l.taxRate, path)),
      kind: l.kind ?? (unitAmount < 0n ? ("discount" as const) : ("item" as const)),
    };
  });
  checkMetadata(p, body.metadata);
  p.check();
  return {
    currency: body.currency,
    lines,
    companyId: body.companyId ?? null,
    customerName: body.customerName ?? null,
    customerEmail: body.customerEmail ?? null,
    customerWallet: body.customerWallet ?? null,
    network: body.network ?? null,
    planId: body.planId ?? null,
    description: body.description ?? null,
    metadata: body.metadata ?? {},
    ...(body.paymentTermsDays === undefined ? {} : { paymentTermsDays: body.paymentTermsDays }),
  };
}

/** A credit note's body as the service's input (a credit part only: refunds come with their proof). */
export function creditNoteInputOf(body: CreditNoteWrite): CreditNoteInput {
  const p = new Problems("body");
  const credit = positive(p, "amount", body.amount);
  const lines = body.lineItems?.map((l, i) => ({ description: l.description, amount: positive(p, `lineItems[${i}].amount`, l.amount) }));
  p.check();
  return { reason: body.reason, creditAmount: credit, memo: body.memo ?? null, ...(lines ? { lines } : {}) };
}
