/** Query and answer models of the dashboard's reports (docs/reports.md): `{data}` envelopes, money as decimal strings. */
import { t } from "elysia";
import { DEFAULT_DAYS, DEFAULT_MONTHS, MAX_DAYS, MAX_MONTHS } from "./compute";

const Day = (what: string) =>
  t.String({
    maxLength: 10,
    pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
    "x-expected": "A UTC day as YYYY-MM-DD, such as 2026-01-31",
    description: what,
  });
const Month = (what: string) =>
  t.String({ maxLength: 7, pattern: "^[0-9]{4}-[0-9]{2}$", "x-expected": "A UTC month as YYYY-MM, such as 2026-01", description: what });
const Micro = (what: string) => t.String({ description: `${what}: a decimal string with six fractional digits, never a float` });

export const UsageQuery = t.Object({
  feature: t.Optional(t.String({ minLength: 1, maxLength: 200, description: "A feature's featureKey or id; none: every feature with usage" })),
  from: t.Optional(Day(`The first day, included; default: ${DEFAULT_DAYS - 1} days before \`to\``)),
  to: t.Optional(Day("The last day, included; default: today by the service's clock (UTC)")),
  interval: t.Optional(t.Literal("day", { description: "The bucket; only `day`" })),
});

export const MonthQuery = t.Object({
  from: t.Optional(Month(`The first month, included; default: ${DEFAULT_MONTHS - 1} months before \`to\``)),
  to: t.Optional(Month("The last month, included; default: this month by the service's clock (UTC)")),
});

const UsagePoint = t.Object({
  day: t.String({ description: "YYYY-MM-DD (UTC)" }),
  quantity: t.String({ description: "Units used that day: an integer string (sums may pass 2^53)" }),
});

export const UsageReport = t.Object(
  {
    from: t.String({ description: "The first day of the range (YYYY-MM-DD)" }),
    to: t.String({ description: "The last day of the range, included" }),
    interval: t.Literal("day"),
    days: t.Array(t.String(), { description: `Every day of the range, in order (at most ${MAX_DAYS})` }),
    features: t.Array(
      t.Object({
        id: t.String(),
        featureKey: t.String(),
        name: t.String(),
        total: t.String({ description: "Units over the range: an integer string" }),
        points: t.Array(UsagePoint, { description: "One per day of the range; a day without usage is 0" }),
      }),
      { description: "Features with usage in the range (or the one asked for), by featureKey" },
    ),
  },
  {
    $id: "UsageReport",
    examples: [
      {
        from: "2026-01-30",
        to: "2026-01-31",
        interval: "day",
        days: ["2026-01-30", "2026-01-31"],
        features: [
          {
            id: "cflag_01JH5Q8T0M3V9X2Y4Z6A8B0C1K",
            featureKey: "api-calls",
            name: "API calls",
            total: "42",
            points: [
              { day: "2026-01-30", quantity: "40" },
              { day: "2026-01-31", quantity: "2" },
            ],
          },
        ],
      },
    ],
  },
);

const RevenueFigures = {
  paid: Micro("Collected by invoices paid in the month (their amountPaid, by paidAt)"),
  refunded: Micro("Sent back by refunds recorded in the month"),
  credited: Micro("Credit notes' credit part issued in the month (lowered what invoices asked; never collected)"),
  net: Micro("paid - refunded: may be negative"),
  invoicesPaid: t.Integer({ description: "Invoices paid in the month" }),
};

export const RevenueReport = t.Object(
  {
    from: t.String({ description: "The first month (YYYY-MM)" }),
    to: t.String({ description: "The last month, included" }),
    months: t.Array(t.String(), { description: `Every month of the range, in order (at most ${MAX_MONTHS})` }),
    currencies: t.Array(
      t.Object({
        currency: t.String(),
        total: t.Object(RevenueFigures, { description: "The range's sums" }),
        months: t.Array(t.Object({ month: t.String(), ...RevenueFigures }), { description: "One per month of the range" }),
      }),
      { description: "One per currency with money in the range, by currency: amounts of two currencies are never added" },
    ),
  },
  {
    $id: "RevenueReport",
    examples: [
      {
        from: "2026-01",
        to: "2026-01",
        months: ["2026-01"],
        currencies: [
          {
            currency: "USDC",
            total: { paid: "120.000000", refunded: "20.000000", credited: "5.000000", net: "100.000000", invoicesPaid: 3 },
            months: [{ month: "2026-01", paid: "120.000000", refunded: "20.000000", credited: "5.000000", net: "100.000000", invoicesPaid: 3 }],
          },
        ],
      },
    ],
  },
);

const RenewalFigures = {
  renewalsSucceeded: t.Integer({ description: "Renewal charges that succeeded (by when the chain answered)" }),
  renewalsFailed: t.Integer({ description: "Renewal charges that failed" }),
  failedCharges: t.Integer({ description: "Every failed charge: activations, renewals and plan-change prorations" }),
  dunningRetries: t.Integer({ description: "Renewal charges that retried a failed period (attempt 2 or later)" }),
  recovered: t.Integer({ description: "Of those retries, the ones that succeeded" }),
  canceledUnpaid: t.Integer({ description: "Subscriptions canceled in the month after their last dunning retry failed" }),
};

export const RenewalReport = t.Object(
  {
    from: t.String({ description: "The first month (YYYY-MM)" }),
    to: t.String({ description: "The last month, included" }),
    total: t.Object(RenewalFigures, { description: "The range's sums" }),
    months: t.Array(t.Object({ month: t.String(), ...RenewalFigures }), { description: "One per month of the range" }),
  },
  {
    $id: "RenewalReport",
    examples: [
      {
        from: "2026-01",
        to: "2026-01",
        total: { renewalsSucceeded: 10, renewalsFailed: 2, failedCharges: 3, dunningRetries: 2, recovered: 1, canceledUnpaid: 0 },
        months: [
          { month: "2026-01", renewalsSucceeded: 10, renewalsFailed: 2, failedCharges: 3, dunningRetries: 2, recovered: 1, canceledUnpaid: 0 },
        ],
      },
    ],
  },
);
