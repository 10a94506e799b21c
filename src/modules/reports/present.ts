/** Report rows to the answers of schemas.ts: one point per day or month of the range (zeros filled), money formatted. */
import type { Static } from "elysia";
import { formatMicro } from "../../lib/money/units";
import type { Range } from "./compute";
import type { RenewalMonthRow, RevenueMonthRow, UsageDayRow } from "./rows";
import type { RenewalReport, RevenueReport, UsageReport } from "./schemas";

export function presentUsage(range: Range, rows: readonly UsageDayRow[], only: { id: string; feature_key: string; name: string } | null) {
  const byFeature = new Map<string, { id: string; featureKey: string; name: string; days: Map<string, bigint> }>();
  // The feature asked for is answered even with no usage in the range: a flat line, not a missing chart.
  if (only) byFeature.set(only.id, { id: only.id, featureKey: only.feature_key, name: only.name, days: new Map() });
  for (const r of rows) {
    let f = byFeature.get(r.feature_id);
    if (!f) byFeature.set(r.feature_id, (f = { id: r.feature_id, featureKey: r.feature_key, name: r.name, days: new Map() }));
    f.days.set(r.day, r.quantity);
  }
  const features = [...byFeature.values()]
    .sort((a, b) => (a.featureKey < b.featureKey ? -1 : a.featureKey > b.featureKey ? 1 : 0))
    .map((f) => {
      const points = range.steps.map((day) => ({ day, quantity: (f.days.get(day) ?? 0n).toString() }));
      const total = [...f.days.values()].reduce((s, q) => s + q, 0n);
      return { id: f.id, featureKey: f.featureKey, name: f.name, total: total.toString(), points };
    });
  return { from: range.from, to: range.to, interval: "day" as const, days: range.steps, features } satisfies Static<typeof UsageReport>;
}

const revenueFigures = (paid: bigint, refunded: bigint, credited: bigint, invoicesPaid: bigint) => ({
  paid: formatMicro(paid),
  refunded: formatMicro(refunded),
  credited: formatMicro(credited),
  net: formatMicro(paid - refunded),
  invoicesPaid: Number(invoicesPaid),
});

export function presentRevenue(range: Range, rows: readonly RevenueMonthRow[]) {
  const byCurrency = new Map<string, Map<string, RevenueMonthRow>>();
  for (const r of rows) {
    if (!byCurrency.has(r.currency)) byCurrency.set(r.currency, new Map());
    byCurrency.get(r.currency)!.set(r.month, r);
  }
  const currencies = [...byCurrency.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency, months]) => {
      const sum = (pick: (r: RevenueMonthRow) => bigint) => [...months.values()].reduce((s, r) => s + pick(r), 0n);
      return {
        currency,
        total: revenueFigures(
          sum((r) => r.paid),
          sum((r) => r.refunded),
          sum((r) => r.credited),
          sum((r) => r.invoices_paid),
        ),
        months: range.steps.map((month) => {
          const r = months.get(month);
          return { month, ...revenueFigures(r?.paid ?? 0n, r?.refunded ?? 0n, r?.credited ?? 0n, r?.invoices_paid ?? 0n) };
        }),
      };
    });
  return { from: range.from, to: range.to, months: range.steps, currencies } satisfies Static<typeof RevenueReport>;
}

const RENEWAL_FIELDS = [
  ["renewalsSucceeded", "renewals_succeeded"],
  ["renewalsFailed", "renewals_failed"],
  ["failedCharges", "failed_charges"],
  ["dunningRetries", "dunning_retries"],
  ["recovered", "recovered"],
  ["canceledUnpaid", "canceled_unpaid"],
] as const;
type RenewalFigures = Record<(typeof RENEWAL_FIELDS)[number][0], number>;

const renewalFigures = (r: RenewalMonthRow | undefined): RenewalFigures =>
  Object.fromEntries(RENEWAL_FIELDS.map(([field, column]) => [field, Number(r?.[column] ?? 0n)])) as RenewalFigures;

export function presentRenewals(range: Range, rows: readonly RenewalMonthRow[]) {
  const byMonth = new Map(rows.map((r) => [r.month, r]));
  const months = range.steps.map((month) => ({ month, ...renewalFigures(byMonth.get(month)) }));
  const total = Object.fromEntries(RENEWAL_FIELDS.map(([field]) => [field, months.reduce((s, m) => s + m[field], 0)])) as RenewalFigures;
  return { from: range.from, to: range.to, total, months } satisfies Static<typeof RenewalReport>;
}
