/**
 * The overview: usage over time per feature, revenue per month, renewals and failed charges, each a chart with
 * its figures in a table, for ranges the operator may change (docs/reports.md#the-overview-page). Every figure
 * is the API's (GET /dashboard/reports/*); the page only scales bars and prints.
 */
import { Field, FormError, Shell } from "../../layout";
import type { PageSession } from "../../session";
import { BarChart, count, Legend, LineChart, micro, type Series } from "./charts";

export const PATH = "/dashboard/overview";

export interface UsagePoint {
  day: string;
  quantity: string;
}
export interface UsageFeature {
  id: string;
  featureKey: string;
  name: string;
  total: string;
  points: UsagePoint[];
}
export interface UsageReport {
  from: string;
  to: string;
  days: string[];
  features: UsageFeature[];
}
interface RevenueFigures {
  paid: string;
  refunded: string;
  credited: string;
  net: string;
  invoicesPaid: number;
}
export interface RevenueReport {
  from: string;
  to: string;
  months: string[];
  currencies: { currency: string; total: RevenueFigures; months: (RevenueFigures & { month: string })[] }[];
}
interface RenewalFigures {
  renewalsSucceeded: number;
  renewalsFailed: number;
  failedCharges: number;
  dunningRetries: number;
  recovered: number;
  canceledUnpaid: number;
}
export interface RenewalReport {
  from: string;
  to: string;
  total: RenewalFigures;
  months: (RenewalFigures & { month: string })[];
}

/** A report as the page got it: the answer, or the API's refusal (its message, and per field). */
export type Answer<R> =
  | { ok: true; report: R }
  | { ok: false; error: string | null; fields: Record<string, string> }
  /** the session's roles do not reach the report: the page says so and never asks */
  | { ok: "hidden" };

/** What the operator asked for (the query), kept as typed. */
export interface Asked {
  feature?: string;
  from?: string;
  to?: string;
  monthFrom?: string;
  monthTo?: string;
}

export interface OverviewProps {
  session: PageSession;
  asked: Asked;
  usage: Answer<UsageReport>;
  /** the features the picker offers (the catalog's, a first page) */
  features: { featureKey: string; name: string }[];
  revenue: Answer<RevenueReport>;
  renewals: Answer<RenewalReport>;
}

const shortDay = (day: string) => day.slice(5);

/** The other form's values, carried along so changing one range keeps the other. */
function Carry({ values }: { values: Record<string, string | undefined> }) {
  return <>{Object.entries(values).map(([name, value]) => (value === undefined ? "" : <input type="hidden" name={name} value={value} />))}</>;
}

function UsageSection({ asked, usage, features }: Pick<OverviewProps, "asked" | "usage" | "features">) {
  if (usage.ok === "hidden") {
    return (
      <section aria-labelledby="usage-title">
        <h2 id="usage-title">Usage</h2>
        <p class="hint">Your role does not include catalog:read, which usage needs.</p>
      </section>
    );
  }
  const report = usage.ok ? usage.report : null;
  const fields = usage.ok ? {} : usage.fields;
  const shown = report ? (report.features.find((f) => f.featureKey === asked.feature || f.id === asked.feature) ?? report.features[0]) : undefined;
  const picked = asked.feature ?? shown?.featureKey ?? "";
  const options = [...features];
  if (shown && !options.some((f) => f.featureKey === shown.featureKey)) options.unshift(shown);
  const featureError = fields.feature;
  const others = report && report.features.length > 1 ? report.features : [];
  return (
    <section aria-labelledby="usage-title" class="report">
      <h2 id="usage-title">Usage per day</h2>
      <FormError message={usage.ok ? null : usage.error} />
      <form method="get" action={PATH} class="range-form">
        <Carry values={{ monthFrom: asked.monthFrom, monthTo: asked.monthTo }} />
        <div class={featureError ? "field invalid" : "field"}>
          <label for="feature">Feature</label>
          <select
            id="feature"
            name="feature"
            aria-invalid={featureError ? "true" : undefined}
            aria-describedby={featureError ? "feature-error" : undefined}
          >
            {options.map((f) => (
              <option value={f.featureKey} selected={f.featureKey === picked} safe>
                {`${f.name} (${f.featureKey})`}
              </option>
            ))}
          </select>
          {featureError ? (
            <p class="field-error" id="feature-error" safe>
              {featureError}
            </p>
          ) : (
            ""
          )}
        </div>
        <Field name="from" label="From (UTC day)" type="date" value={asked.from ?? report?.from} error={fields.from} />
        <Field name="to" label="To (UTC day)" type="date" value={asked.to ?? report?.to} error={fields.to} />
        <button type="submit">Show usage</button>
      </form>
      {report && shown ? <UsageChart report={report} feature={shown} /> : ""}
      {report && !shown ? <p safe>{`No metered usage from ${report.from} to ${report.to}.`}</p> : ""}
      {others.length ? (
        <div class="table-wrap" tabindex="0">
          <table>
            <caption>Every feature with usage in the range</caption>
            <thead>
              <tr>
                <th scope="col">Feature</th>
                <th scope="col">Key</th>
                <th scope="col" class="num">
                  Units
                </th>
              </tr>
            </thead>
            <tbody>
              {others.map((f) => (
                <tr>
                  <td safe>{f.name}</td>
                  <td>
                    <code safe>{f.featureKey}</code>
                  </td>
                  <td class="num" safe>
                    {f.total}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        ""
      )}
    </section>
  );
}

function UsageChart({ report, feature }: { report: UsageReport; feature: UsageFeature }) {
  const series: Series[] = [{ name: feature.name, tone: "a", values: feature.points.map((p) => count(p.quantity)) }];
  const title = `Usage of ${feature.name} per day, ${report.from} to ${report.to}`;
  return (
    <div class="chart-block">
      <figure>
        <LineChart
          id="usage-chart"
          title={title}
          description={`${feature.total} units in all, one point per UTC day.`}
          labels={report.days}
          short={shortDay}
          series={series}
          unit="units"
        />
      </figure>
      <div class="table-wrap figures" tabindex="0" role="region" aria-labelledby="usage-table-caption">
        <table id="usage-table">
          <caption id="usage-table-caption" safe>{`${feature.name}: units per day (total ${feature.total})`}</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col" class="num">
                Units
              </th>
            </tr>
          </thead>
          <tbody>
            {feature.points.map((p) => (
              <tr>
                <th scope="row" safe>
                  {p.day}
                </th>
                <td class="num" safe>
                  {p.quantity}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function MonthForm({ asked, range, fields }: { asked: Asked; range: { from: string; to: string } | null; fields: Record<string, string> }) {
  return (
    <form method="get" action={PATH} class="range-form">
      <Carry values={{ feature: asked.feature, from: asked.from, to: asked.to }} />
      <Field name="monthFrom" label="From (UTC month, YYYY-MM)" type="month" value={asked.monthFrom ?? range?.from} error={fields.monthFrom} />
      <Field name="monthTo" label="To (UTC month, YYYY-MM)" type="month" value={asked.monthTo ?? range?.to} error={fields.monthTo} />
      <button type="submit">Show months</button>
    </form>
  );
}

function RevenueSection({ revenue }: { revenue: Answer<RevenueReport> }) {
  if (revenue.ok !== true) return "";
  const report = revenue.report;
  if (report.currencies.length === 0) return <p safe>{`No revenue from ${report.from} to ${report.to}.`}</p>;
  return (
    <>
      {report.currencies.map((c, k) => {
        const id = `revenue-${k}`;
        const series: Series[] = [{ name: `Paid (${c.currency})`, tone: "a", values: c.months.map((m) => micro(m.paid)) }];
        return (
          <div class="chart-block wide" data-currency={c.currency}>
            <figure>
              <BarChart
                id={`${id}-chart`}
                title={`Revenue in ${c.currency} per month, ${report.from} to ${report.to}`}
                description={`Paid ${c.total.paid} ${c.currency} in all, refunded ${c.total.refunded}, net ${c.total.net}; one bar per month for what paid invoices collected.`}
                labels={report.months}
                series={series}
                unit={c.currency}
              />
            </figure>
            <div class="table-wrap figures" tabindex="0" role="region" aria-labelledby={`${id}-caption`}>
              <table id={`${id}-table`} class="revenue-table">
                <caption id={`${id}-caption`} safe>{`Revenue in ${c.currency}`}</caption>
                <thead>
                  <tr>
                    <th scope="col">Month</th>
                    <th scope="col" class="num">
                      Paid
                    </th>
                    <th scope="col" class="num">
                      Refunded
                    </th>
                    <th scope="col" class="num">
                      Credited
                    </th>
                    <th scope="col" class="num">
                      Net
                    </th>
                    <th scope="col" class="num">
                      Invoices paid
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {c.months.map((m) => (
                    <RevenueRow label={m.month} figures={m} />
                  ))}
                </tbody>
                <tfoot>
                  <RevenueRow label="Total" figures={c.total} />
                </tfoot>
              </table>
            </div>
          </div>
        );
      })}
    </>
  );
}

function RevenueRow({ label, figures }: { label: string; figures: RevenueFigures }) {
  return (
    <tr>
      <th scope="row" safe>
        {label}
      </th>
      <td class="num" safe>
        {figures.paid}
      </td>
      <td class="num" safe>
        {figures.refunded}
      </td>
      <td class="num" safe>
        {figures.credited}
      </td>
      <td class="num" safe>
        {figures.net}
      </td>
      <td class="num" safe>
        {String(figures.invoicesPaid)}
      </td>
    </tr>
  );
}

const RENEWAL_COLUMNS = [
  ["renewalsSucceeded", "Renewals succeeded"],
  ["renewalsFailed", "Renewals failed"],
  ["failedCharges", "Failed charges"],
  ["dunningRetries", "Dunning retries"],
  ["recovered", "Recovered"],
  ["canceledUnpaid", "Canceled unpaid"],
] as const;

function RenewalsSection({ renewals }: { renewals: Answer<RenewalReport> }) {
  if (renewals.ok !== true) return "";
  const report = renewals.report;
  const series: Series[] = [
    { name: "Renewals succeeded", tone: "a", values: report.months.map((m) => count(m.renewalsSucceeded)) },
    { name: "Failed charges", tone: "b", values: report.months.map((m) => count(m.failedCharges)) },
  ];
  return (
    <div class="chart-block wide">
      <figure>
        <BarChart
          id="renewals-chart"
          title={`Renewals and failed charges per month, ${report.from} to ${report.to}`}
          description={`${report.total.renewalsSucceeded} renewals succeeded and ${report.total.failedCharges} charges failed in all; two bars per month.`}
          labels={report.months.map((m) => m.month)}
          series={series}
          unit="charges"
        />
        <figcaption>
          <Legend series={series} />
        </figcaption>
      </figure>
      <div class="table-wrap figures" tabindex="0" role="region" aria-labelledby="renewals-caption">
        <table id="renewals-table">
          <caption id="renewals-caption">Renewals, failed charges and dunning</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              {RENEWAL_COLUMNS.map(([, label]) => (
                <th scope="col" class="num" safe>
                  {String(label)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.months.map((m) => (
              <RenewalRow label={m.month} figures={m} />
            ))}
          </tbody>
          <tfoot>
            <RenewalRow label="Total" figures={report.total} />
          </tfoot>
        </table>
      </div>
    </div>
  );
}

function RenewalRow({ label, figures }: { label: string; figures: RenewalFigures }) {
  return (
    <tr>
      <th scope="row" safe>
        {label}
      </th>
      {RENEWAL_COLUMNS.map(([key]) => (
        <td class="num" safe>
          {String(figures[key])}
        </td>
      ))}
    </tr>
  );
}

function MoneySection({ asked, revenue, renewals }: Pick<OverviewProps, "asked" | "revenue" | "renewals">) {
  if (revenue.ok === "hidden" && renewals.ok === "hidden") {
    return (
      <section aria-labelledby="money-title">
        <h2 id="money-title">Revenue and renewals</h2>
        <p class="hint" id="money-hidden">
          Your role does not include billing:read, which revenue and renewals need.
        </p>
      </section>
    );
  }
  const answered = revenue.ok === true ? revenue.report : renewals.ok === true ? renewals.report : null;
  const refused = revenue.ok === false ? revenue : renewals.ok === false ? renewals : null;
  const fields: Record<string, string> = {};
  for (const [name, message] of Object.entries(refused?.fields ?? {}))
    fields[name === "from" ? "monthFrom" : name === "to" ? "monthTo" : name] = message;
  return (
    <section aria-labelledby="money-title" class="report">
      <h2 id="money-title">Revenue and renewals per month</h2>
      <FormError message={refused?.error ?? null} />
      <MonthForm asked={asked} range={answered} fields={fields} />
      {revenue.ok === true ? <h3>Revenue</h3> : ""}
      <RevenueSection revenue={revenue} />
      {renewals.ok === true ? <h3>Renewals and failed charges</h3> : ""}
      <RenewalsSection renewals={renewals} />
    </section>
  );
}

export function OverviewPage(props: OverviewProps) {
  return (
    <Shell title="Overview" session={props.session} path={PATH}>
      <p class="hint" safe>
        {`Figures of the ${props.session.environment} environment, in UTC, as the API sums them.`}
      </p>
      <UsageSection asked={props.asked} usage={props.usage} features={props.features} />
      <MoneySection asked={props.asked} revenue={props.revenue} renewals={props.renewals} />
    </Shell>
  );
}
