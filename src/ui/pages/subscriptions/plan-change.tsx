/**
 * A plan change in two steps (docs/subscriptions.md#the-quote-is-the-charge): choose the plan, see the API's quote
 * (the exact invoice the change would issue: its lines, what is due now), then apply it. The apply form carries the
 * quote's id and the terms it was asked with, so the API charges exactly the quote shown, once, or refuses
 * (expired, used, stale) and the operator previews again.
 */
import { Field, FormError, Shell, when } from "../../layout";
import type { PageSession } from "../../session";
import { companyLabel, detailPath, PATH, planLabel, type FormState, type PlanOption, type QuoteView, type SubscriptionView } from "./answers";

const PERIODS = ["monthly", "yearly"] as const;
const EFFECTIVE = [
  { value: "now", label: "Now: prorated, the difference charged or credited" },
  { value: "period_end", label: "At the end of the current period: nothing charged now" },
] as const;

/** The fields a preview and its change share (the quote binds them). */
export const CHANGE_FIELDS = ["planId", "billingPeriod", "effective", "couponCode"] as const;

const priceList = (p: PlanOption): string =>
  p.prices.length ? p.prices.map((x) => `${x.amount} ${x.currency} ${x.billingPeriod}`).join(", ") : "no price";

function Select({
  name,
  label,
  options,
  value,
  error,
}: {
  name: string;
  label: string;
  options: readonly { value: string; label: string }[];
  value?: string;
  error?: string;
}) {
  return (
    <div class={error ? "field invalid" : "field"}>
      <label for={name} safe>
        {label}
      </label>
      <select id={name} name={name} aria-invalid={error ? "true" : undefined} aria-describedby={error ? `${name}-error` : undefined}>
        {options.map((o) => (
          <option value={o.value} selected={o.value === value} safe>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <p class="field-error" id={`${name}-error`} safe>
          {error}
        </p>
      ) : (
        ""
      )}
    </div>
  );
}

export interface ChoosePlanProps {
  session: PageSession;
  subscription: SubscriptionView;
  /** the catalog's plans (null: this role may not read the catalog; the plan id is typed) */
  plans: PlanOption[] | null;
  form?: FormState;
}

export function ChoosePlanPage({ session, subscription: s, plans, form }: ChoosePlanProps) {
  const v = form?.values ?? {};
  const current = `${planLabel(s)} at ${s.price} ${s.currency} ${s.billingPeriod}, period ${when(s.currentPeriodStart)} to ${when(s.currentPeriodEnd)}`;
  return (
    <Shell title="Change plan" session={session} path={PATH}>
      <p>
        <strong safe>{companyLabel(s)}</strong> is on <span safe>{current}</span>.
      </p>
      <FormError message={form?.error ?? null} />
      <form method="post" action={`${detailPath(s.id)}/plan/preview`} class="stack">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        {plans ? (
          <Select
            name="planId"
            label="New plan"
            options={plans.map((p) => ({ value: p.id, label: `${p.name} (${priceList(p)})` }))}
            value={v.planId}
            error={form?.fields.planId}
          />
        ) : (
          <Field name="planId" label="New plan (its id)" value={v.planId} error={form?.fields.planId} required />
        )}
        <Select
          name="billingPeriod"
          label="Billing period"
          options={PERIODS.map((p) => ({ value: p, label: p }))}
          value={v.billingPeriod ?? s.billingPeriod}
          error={form?.fields.billingPeriod}
        />
        <Select name="effective" label="Takes effect" options={EFFECTIVE} value={v.effective ?? "now"} error={form?.fields.effective} />
        <Field name="couponCode" label="Coupon code (optional)" value={v.couponCode} error={form?.fields.couponCode} />
        <div class="actions">
          <button type="submit" class="primary">
            Preview the change
          </button>
          <a href={detailPath(s.id)}>Back</a>
        </div>
      </form>
    </Shell>
  );
}

export interface QuoteProps {
  session: PageSession;
  subscription: SubscriptionView;
  quote: QuoteView;
  /** what the preview was asked with: the apply form sends the same */
  asked: Record<string, string>;
  /** the plan's name, when the catalog is readable */
  planName: string | null;
}

export function QuotePage({ session, subscription: s, quote: q, asked, planName }: QuoteProps) {
  const mayApply = session.may("POST", "/dashboard/companies/{id}/plan");
  const target = planName ? `${planName} (${q.planId})` : q.planId;
  const dueNow = q.invoice ? `${q.invoice.total} ${q.currency}` : `Nothing (${q.effective === "period_end" ? "at the period's end" : "no invoice"})`;
  const takes = q.effective === "now" ? "Now" : `At ${when(q.currentPeriodEnd)}`;
  const expires = `Priced at ${when(q.quote.pricedAt)}; valid until ${when(q.quote.expiresAt)}`;
  return (
    <Shell title="Plan change quote" session={session} path={PATH}>
      <p>
        <strong safe>{companyLabel(s)}</strong> from <span safe>{`${planLabel(s)} (${s.billingPeriod})`}</span> to{" "}
        <strong safe>{`${target} (${q.billingPeriod})`}</strong>.
      </p>
      {q.changed ? "" : <p class="notice">This is the current plan, period and coupon: applying it changes nothing.</p>}
      <section aria-labelledby="quote-title">
        <h2 id="quote-title">The quote</h2>
        <dl class="facts">
          <div>
            <dt>Amount due now</dt>
            <dd>
              <strong id="amount-due" safe>
                {dueNow}
              </strong>
            </dd>
          </div>
          <div>
            <dt>Kind</dt>
            <dd safe>{q.kind}</dd>
          </div>
          <div>
            <dt>Takes effect</dt>
            <dd safe>{takes}</dd>
          </div>
          <div>
            <dt>Credit for unused time (before tax)</dt>
            <dd id="quote-credit" safe>
              {`${q.credit} ${q.currency}`}
            </dd>
          </div>
          <div>
            <dt>Charge for the new terms (before tax)</dt>
            <dd id="quote-charge" safe>
              {`${q.charge} ${q.currency}`}
            </dd>
          </div>
          <div>
            <dt>Net, tax included</dt>
            <dd id="quote-net" safe>
              {`${q.net} ${q.currency}`}
            </dd>
          </div>
          <div>
            <dt>To the company's credit balance</dt>
            <dd id="quote-credit-to-balance" safe>
              {`${q.creditToBalance} ${q.currency}`}
            </dd>
          </div>
          <div>
            <dt>Period after the change</dt>
            <dd safe>{`${when(q.currentPeriodStart)} to ${when(q.currentPeriodEnd)}`}</dd>
          </div>
          <div>
            <dt>Quote</dt>
            <dd>
              <code id="quote-id" safe>
                {q.quote.id}
              </code>{" "}
              <span safe>{expires}</span>
            </dd>
          </div>
        </dl>
      </section>
      {q.invoice ? (
        <section aria-labelledby="lines-title">
          <h2 id="lines-title">The invoice it issues</h2>
          <div class="table-wrap" tabindex="0">
            <table class="quote-lines">
              <thead>
                <tr>
                  <th scope="col">Description</th>
                  <th scope="col">Quantity</th>
                  <th scope="col">Unit amount</th>
                  <th scope="col">Tax rate (%)</th>
                  <th scope="col">Subtotal</th>
                  <th scope="col">Tax</th>
                  <th scope="col">Total</th>
                </tr>
              </thead>
              <tbody>
                {q.invoice.lineItems.map((l) => (
                  <tr>
                    <td safe>{l.description}</td>
                    <td safe>{String(l.quantity)}</td>
                    <td safe>{l.unitAmount}</td>
                    <td safe>{l.taxRate}</td>
                    <td safe>{l.lineSubtotal}</td>
                    <td safe>{l.lineTax}</td>
                    <td safe>{l.lineTotal}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colspan="4">
                    Totals
                  </th>
                  <td safe>{q.invoice.subtotal}</td>
                  <td safe>{q.invoice.taxTotal}</td>
                  <td id="quote-total" safe>
                    {q.invoice.total}
                  </td>
                </tr>
                <tr>
                  <th scope="row" colspan="6">
                    Drawn from the credit balance
                  </th>
                  <td safe>{q.invoice.balanceApplied}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        </section>
      ) : (
        ""
      )}
      {mayApply ? (
        <form method="post" action={`${detailPath(s.id)}/plan`} class="actions">
          <input type="hidden" name="csrf" value={session.csrfToken} />
          <input type="hidden" name="quoteId" value={q.quote.id} />
          {CHANGE_FIELDS.map((name) => (asked[name] ? <input type="hidden" name={name} value={asked[name]} /> : ""))}
          <button type="submit" class="primary">
            Apply this quote
          </button>
          <a href={`${detailPath(s.id)}/plan`}>Choose again</a>
        </form>
      ) : (
        <p class="hint">Your role lets you preview a plan change, not apply it.</p>
      )}
    </Shell>
  );
}
