/**
 * The dashboard's reports (docs/reports.md): usage per feature per day, revenue per month, renewals and failed
 * charges per month, summed by the database over a bounded range of the service's clock. Dashboard sessions
 * only; usage needs catalog:read, money and renewals billing:read (docs/reports.md#decisions).
 */
import { Elysia } from "elysia";
import { authPlugin, type AuthDeps } from "../../http/auth";
import { data } from "../../http/envelope";
import { errorResponses } from "../../http/error-schemas";
import type { Sql } from "../../db/client";
import type { Clock } from "../../lib/clock";
import { apiError } from "../../lib/errors";
import { dayRange, MAX_DAYS, MAX_MONTHS, monthRange } from "./compute";
import { presentRenewals, presentRevenue, presentUsage } from "./present";
import { findReportFeature, renewalsPerMonth, revenuePerMonth, usagePerDay } from "./repo";
import { MonthQuery, RenewalReport, RevenueReport, UsageQuery, UsageReport } from "./schemas";

const TAGS = ["Reports"];
const RANGE_NOTE =
  "Times are UTC; both ends of the range are included. A date that is not one, a range that ends before it starts or is longer than the limit is 400 `{error, details}` naming `query.from` or `query.to`.";

export function reportRoutes(deps: AuthDeps & { sql: Sql; clock: Clock }) {
  return new Elysia()
    .use(authPlugin(deps))
    .get(
      "/dashboard/reports/usage",
      async ({ principal, query }) => {
        const range = dayRange(deps.clock.now(), query.from, query.to);
        const only = query.feature === undefined ? null : await findReportFeature(deps.sql, principal, query.feature);
        if (only === undefined) throw apiError("not_found", "Feature not found");
        const rows = await usagePerDay(deps.sql, principal, range, only?.id ?? null);
        return { data: presentUsage(range, rows, only) };
      },
      {
        access: true,
        query: UsageQuery,
        response: { 200: data(UsageReport), ...errorResponses("validation_failed", "not_found") },
        detail: {
          tags: TAGS,
          summary: "Usage per feature per day: accepted metered units (dashboard session only, role catalog:read)",
          description: `The units of accepted track events and /usage/consume calls (refusals are not usage), summed per feature and UTC day by when the service received them, over \`from\`..\`to\` (default: the last 30 days of the service's clock, today included; at most ${MAX_DAYS} days). Every day of the range has a point, 0 when nothing was used. \`feature\` (featureKey or id) narrows to one feature, answered even without usage; an unknown one is 404. ${RANGE_NOTE}`,
        },
      },
    )
    .get(
      "/dashboard/reports/revenue",
      async ({ principal, query }) => {
        const range = monthRange(deps.clock.now(), query.from, query.to);
        return { data: presentRevenue(range, await revenuePerMonth(deps.sql, principal, range.start, range.end)) };
      },
      {
        access: true,
        query: MonthQuery,
        response: { 200: data(RevenueReport), ...errorResponses("validation_failed") },
        detail: {
          tags: TAGS,
          summary: "Revenue per month and currency: paid, refunded, credited, net (dashboard session only, role billing:read)",
          description: `Per UTC month of \`from\`..\`to\` (default: the last 12 months of the service's clock, this one included; at most ${MAX_MONTHS} months) and per currency, never added across currencies: \`paid\` sums the amountPaid of invoices paid in the month (by paidAt), \`refunded\` the refunds recorded in the month, \`credited\` the credit part of credit notes issued in the month, and \`net\` is paid - refunded (credit lowered what was asked, it was never collected). Amounts are the invoices' decimal strings with six fractional digits. ${RANGE_NOTE}`,
        },
      },
    )
    .get(
      "/dashboard/reports/renewals",
      async ({ principal, query }) => {
        const range = monthRange(deps.clock.now(), query.from, query.to);
        return { data: presentRenewals(range, await renewalsPerMonth(deps.sql, principal, range.start, range.end)) };
      },
      {
        access: true,
        query: MonthQuery,
        response: { 200: data(RenewalReport), ...errorResponses("validation_failed") },
        detail: {
          tags: TAGS,
          summary: "Renewals, failed charges and dunning per month (dashboard session only, role billing:read)",
          description: `Per UTC month of \`from\`..\`to\` (default: the last 12 months of the service's clock; at most ${MAX_MONTHS} months), the subscription charges that ended in the month (by when the chain answered): renewals that succeeded and failed, every failed charge (activation, renewal, proration), dunning retries and the ones that recovered, and subscriptions canceled after their last retry. Pending charges are not counted until they end. ${RANGE_NOTE}`,
        },
      },
    );
}
