/** The reports' SQL (sql/queries/report_*): sums per UTC day or month over a half-open range, per tenant. */
import { queries, run, runOne, type Db } from "../../db/queries";
import type { Tenant } from "../../lib/tenant";
import type { RenewalMonthRow, RevenueMonthRow, UsageDayRow } from "./rows";

const Q = queries(["report_feature_find", "report_usage_daily", "report_revenue_monthly", "report_renewals_monthly"]);

/** Accepted usage per feature and UTC day in [from, to), of one feature (its id) or all. */
export const usagePerDay = (db: Db, t: Tenant, range: { start: Date; end: Date }, featureId: string | null) =>
  run<UsageDayRow>(db, Q.report_usage_daily, [t.teamId, t.environment, range.start, range.end, featureId]);

/** Paid, refunded and credited micro-units per UTC month and currency in [from, to). */
export const revenuePerMonth = (db: Db, t: Tenant, from: Date, to: Date) =>
  run<RevenueMonthRow>(db, Q.report_revenue_monthly, [t.teamId, t.environment, from, to]);

/** Renewals, failed charges and dunning per UTC month in [from, to). */
export const renewalsPerMonth = (db: Db, t: Tenant, from: Date, to: Date) =>
  run<RenewalMonthRow>(db, Q.report_renewals_monthly, [t.teamId, t.environment, from, to]);

/** The feature a report names by id or featureKey, or undefined. */
export const findReportFeature = (db: Db, t: Tenant, ref: string) =>
  runOne<{ id: string; feature_key: string; name: string }>(db, Q.report_feature_find, [t.teamId, t.environment, ref]);
