/**
 * The confirmation steps before a subscription's writes (docs/dashboard.md#how-a-page-works): what will happen,
 * then the post that does it. A refusal comes back on the same page with the API's message and the choice kept.
 */
import { Field, FormError, Shell, when } from "../../layout";
import type { PageSession } from "../../session";
import { companyLabel, detailPath, PATH, planLabel, type FormState, type SubscriptionView } from "./answers";

interface ConfirmProps {
  session: PageSession;
  subscription: SubscriptionView;
  form?: FormState;
}

const who = (s: SubscriptionView): string => `${companyLabel(s)} on ${planLabel(s)}`;

export function CancelPage({ session, subscription: s, form }: ConfirmProps) {
  const now = form?.values.when === "now";
  const end = `At the end of the current period (${when(s.currentPeriodEnd)}): no more renewals, nothing refunded`;
  return (
    <Shell title="Cancel subscription" session={session} path={PATH}>
      <FormError message={form?.error ?? null} />
      <p>
        Cancel the subscription of <strong safe>{who(s)}</strong> (<code safe>{s.id}</code>, <span safe>{s.status}</span>)?
      </p>
      <form method="post" action={`${detailPath(s.id)}/cancel`} class="stack">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <fieldset>
          <legend>When</legend>
          <div class="choice">
            <input type="radio" id="when-period-end" name="when" value="period_end" checked={!now} />
            <label for="when-period-end" safe>
              {end}
            </label>
          </div>
          <div class="choice">
            <input type="radio" id="when-now" name="when" value="now" checked={now} />
            <label for="when-now">Now: the company moves to the fallback plan (or none) and the mandate is revoked; nothing is refunded</label>
          </div>
        </fieldset>
        <Field name="reason" label="Reason (optional, for the audit log and the webhook)" value={form?.values.reason} error={form?.fields.reason} />
        <div class="actions">
          <button type="submit" class="danger">
            Cancel subscription
          </button>
          <a href={detailPath(s.id)}>Keep it</a>
        </div>
      </form>
    </Shell>
  );
}

export function ResumePage({ session, subscription: s, form }: ConfirmProps) {
  return (
    <Shell title="Resume subscription" session={session} path={PATH}>
      <FormError message={form?.error ?? null} />
      <p>
        Resume the subscription of <strong safe>{who(s)}</strong> (<code safe>{s.id}</code>)? It renews at{" "}
        <span safe>{when(s.currentPeriodEnd)}</span> instead of ending then, charging the payer through the mandate.
      </p>
      <form method="post" action={`${detailPath(s.id)}/resume`} class="actions">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <button type="submit" class="primary">
          Resume subscription
        </button>
        <a href={detailPath(s.id)}>Back</a>
      </form>
    </Shell>
  );
}

export function RevokeMandatePage({ session, subscription: s, form }: ConfirmProps) {
  return (
    <Shell title="Revoke mandate" session={session} path={PATH}>
      <FormError message={form?.error ?? null} />
      <p>
        Revoke mandate <code safe>{s.mandateId ?? "—"}</code> of <strong safe>{who(s)}</strong>? Pulls stop at once: the next renewal fails and
        dunning follows. The payer must authorize again to pay. This cannot be undone.
      </p>
      <form method="post" action={`${detailPath(s.id)}/revoke-mandate`} class="stack">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <Field name="reason" label="Reason (optional)" value={form?.values.reason} error={form?.fields.reason} />
        <div class="actions">
          <button type="submit" class="danger">
            Revoke mandate
          </button>
          <a href={detailPath(s.id)}>Keep it</a>
        </div>
      </form>
    </Shell>
  );
}
