/**
 * Subscriptions: the environment's list (filtered by status, a page at a time) and one subscription with its
 * period, renewal and dunning state, its mandate and its recent chain operations, and the links to what the
 * session may do with it (docs/dashboard.md#pages). Everything printed is the API's answer.
 */
import { ListTable, Shell, when } from "../../layout";
import type { PageSession } from "../../session";
import {
  companyLabel,
  detailPath,
  PATH,
  planLabel,
  SUBSCRIPTION_STATUSES,
  type MandateView,
  type OperationView,
  type SubscriptionDetailView,
  type SubscriptionView,
} from "./answers";

export interface SubscriptionsProps {
  session: PageSession;
  subscriptions: SubscriptionView[];
  nextCursor: string | null;
  status: string | undefined;
  /** the company filter as typed (our comp_ id or the integrator's) */
  companyId: string | undefined;
}

// Values of their own, printed with `safe`: the XSS scan does not see into a conditional expression.
const period = (s: SubscriptionView): string => `${when(s.currentPeriodStart)} to ${when(s.currentPeriodEnd)}`;
const nextRenewal = (s: SubscriptionView): string => {
  if (s.status === "CANCELED") return "—";
  if (s.cancelAtPeriodEnd) return `None: cancels ${when(s.currentPeriodEnd)}`;
  return when(s.nextAttemptAt);
};
const dunning = (s: SubscriptionView): string => (s.dunningAttempts > 0 ? `${s.dunningAttempts} failed; next try ${when(s.nextAttemptAt)}` : "None");

export function SubscriptionsPage({ session, subscriptions, nextCursor, status, companyId }: SubscriptionsProps) {
  const filter = [status ? `&status=${encodeURIComponent(status)}` : "", companyId ? `&companyId=${encodeURIComponent(companyId)}` : ""].join("");
  const title = status ? `${status} subscriptions in ${session.environment}` : `Subscriptions in ${session.environment}`;
  return (
    <Shell title="Subscriptions" session={session} path={PATH}>
      <form method="get" action={PATH} class="actions filter">
        <label for="status">Status</label>
        <select id="status" name="status">
          <option value="" selected={!status}>
            All
          </option>
          {SUBSCRIPTION_STATUSES.map((s) => (
            <option value={s} selected={s === status} safe>
              {s}
            </option>
          ))}
        </select>
        <label for="companyId">Company id</label>
        <input id="companyId" name="companyId" type="search" value={companyId ?? ""} placeholder="yours or comp_…" />
        <button type="submit">Filter</button>
      </form>
      <ListTable
        title={title}
        empty="No subscriptions here."
        columns={["Company", "Plan", "Network", "Status", "Current period", "Next renewal", "Dunning"]}
        rows={subscriptions.map((s) => (
          <tr>
            <td>
              <a href={detailPath(s.id)} safe>
                {companyLabel(s)}
              </a>
            </td>
            <td safe>{planLabel(s)}</td>
            <td safe>{`${s.network} · ${s.tokenSymbol}`}</td>
            <td safe>{s.status}</td>
            <td safe>{period(s)}</td>
            <td safe>{nextRenewal(s)}</td>
            <td safe>{dunning(s)}</td>
          </tr>
        ))}
      >
        {nextCursor ? (
          <p>
            <a href={`${PATH}?cursor=${encodeURIComponent(nextCursor)}${filter}`}>Next page</a>
          </p>
        ) : (
          ""
        )}
      </ListTable>
    </Shell>
  );
}

/** What a write just did, named by the page it redirected from (`?done=`); anything else prints nothing. */
export const DONE: Record<string, string> = {
  "canceled-at-period-end": "The subscription will cancel at the end of its period.",
  canceled: "The subscription is canceled.",
  resumed: "The subscription goes on: it no longer cancels at the end of its period.",
  "mandate-revoked": "The mandate is revoked: no more pulls.",
  "plan-changed": "The plan is changed.",
  "plan-scheduled": "The plan change is scheduled for the end of the period.",
};

/** A term and its value, in the subscription's facts. */
function Fact({ term, value, code }: { term: string; value: string; code?: boolean }) {
  return (
    <div>
      <dt safe>{term}</dt>
      <dd>{code ? <code safe>{value}</code> : <span safe>{value}</span>}</dd>
    </div>
  );
}

const orDash = (value: string | null | undefined): string => value ?? "—";

function MandateFacts({ mandate }: { mandate: MandateView }) {
  const units = `token units of ${mandate.tokenSymbol}`;
  return (
    <dl class="facts">
      <Fact term="Mandate" value={mandate.id} code />
      <Fact term="Status" value={mandate.status} />
      <Fact term="Authorized in all (cap)" value={`${mandate.authorizedAmount} ${units}`} />
      <Fact term="Remaining" value={`${mandate.remainingAmount} ${units}`} />
      <Fact term="Expires" value={when(mandate.expiresAt)} />
      <Fact term="Network" value={mandate.network} />
      <Fact term="Payer's wallet" value={mandate.payerWallet} code />
      <Fact term="Paid to" value={mandate.recipientWallet} code />
      <Fact term="Given" value={when(mandate.createdAt)} />
      {mandate.revokedAt ? <Fact term="Revoked" value={`${when(mandate.revokedAt)} by ${orDash(mandate.revokedBy)}`} /> : ""}
      {mandate.revokeReason ? <Fact term="Revoke reason" value={mandate.revokeReason} /> : ""}
      {mandate.expiredAt ? <Fact term="Expired" value={`${when(mandate.expiredAt)}: ${orDash(mandate.expiryReason)}`} /> : ""}
    </dl>
  );
}

function Operations({ operations }: { operations: OperationView[] }) {
  const outcome = (o: OperationView): string =>
    o.failureReason ? `${o.status}: ${o.failureReason}${o.failureDetail ? ` (${o.failureDetail})` : ""}` : o.status;
  return (
    <section aria-labelledby="operations-title">
      <h2 id="operations-title">Recent charges</h2>
      {operations.length === 0 ? (
        <p>No chain operations yet.</p>
      ) : (
        <div class="table-wrap" tabindex="0">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Kind</th>
                <th scope="col">Outcome</th>
                <th scope="col">Amount (token units)</th>
                <th scope="col">Attempt</th>
                <th scope="col">Invoice</th>
                <th scope="col">Transaction</th>
              </tr>
            </thead>
            <tbody>
              {operations.map((o) => (
                <tr>
                  <td safe>{when(o.createdAt)}</td>
                  <td safe>{o.kind}</td>
                  <td safe>{outcome(o)}</td>
                  <td safe>{o.amount}</td>
                  <td safe>{String(o.attempt)}</td>
                  <td>
                    {o.invoiceId ? (
                      <a href={`/dashboard/invoices/${encodeURIComponent(o.invoiceId)}`} safe>
                        {o.invoiceId}
                      </a>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td>
                    <code class="hash" safe>
                      {orDash(o.txHash)}
                    </code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export interface SubscriptionDetailProps {
  session: PageSession;
  subscription: SubscriptionDetailView;
  /** GET /mandates/{id}/status's answer (null: none yet) */
  mandate: MandateView | null;
  done?: string;
}

export function SubscriptionDetailPage({ session, subscription: s, mandate, done }: SubscriptionDetailProps) {
  const path = detailPath(s.id);
  const notice = done && Object.hasOwn(DONE, done) ? DONE[done] : undefined;
  const mayCancel = session.may("POST", "/dashboard/subscriptions/{id}/cancel") && s.status !== "CANCELED";
  const mayResume = session.may("POST", "/dashboard/subscriptions/{id}/resume") && s.cancelAtPeriodEnd;
  const mayChange = session.may("POST", "/dashboard/companies/{id}/plan") && s.status !== "CANCELED";
  const mayRevoke = session.may("POST", "/mandates/revoke") && mandate?.status === "ACTIVE";
  const writer = ["/dashboard/subscriptions/{id}/cancel", "/dashboard/companies/{id}/plan", "/mandates/revoke"].some((p) => session.may("POST", p));
  const readOnly = writer ? "" : <p class="hint">Your role lets you read this subscription, not change it.</p>;
  const company = s.companyExternalId
    ? `${companyLabel(s)} (your id ${s.companyExternalId}; ours ${s.companyId})`
    : `${companyLabel(s)} (${s.companyId})`;
  const cancels = s.cancelAtPeriodEnd ? `Yes, at ${when(s.currentPeriodEnd)}` : "No";
  const scheduled = s.scheduledPlanId ? `${s.scheduledPlanId} (${orDash(s.scheduledBillingPeriod)}) from ${when(s.currentPeriodEnd)}` : null;
  return (
    <Shell title={`Subscription of ${companyLabel(s)}`} session={session} path={PATH}>
      {notice ? (
        <p class="notice" role="status" safe>
          {notice}
        </p>
      ) : (
        ""
      )}
      <p>
        <a href={PATH}>All subscriptions</a>
      </p>
      <section aria-labelledby="state-title">
        <h2 id="state-title">Status and period</h2>
        <dl class="facts">
          <Fact term="Status" value={s.status} />
          <Fact term="Company" value={company} />
          <Fact term="Plan" value={`${planLabel(s)} (${s.planId})`} />
          <Fact term="Price" value={`${s.price} ${s.currency} ${s.billingPeriod}`} />
          <Fact term="Current period" value={period(s)} />
          <Fact term="Next renewal" value={nextRenewal(s)} />
          <Fact term="Cancels at period end" value={cancels} />
          {scheduled ? <Fact term="Scheduled plan change" value={scheduled} /> : ""}
          <Fact term="Dunning" value={dunning(s)} />
          {s.trialEnd ? <Fact term="Trial ends" value={when(s.trialEnd)} /> : ""}
          {s.canceledAt ? <Fact term="Canceled" value={`${when(s.canceledAt)}: ${orDash(s.cancelReason)}`} /> : ""}
          <Fact term="Network" value={`${s.network} · ${s.tokenSymbol}`} />
          <Fact term="Payment account" value={s.paymentAccount} code />
          <Fact term="Subscription id" value={s.id} code />
          <Fact term="Subscription token" value={orDash(s.tokenId)} code />
          <Fact term="Since" value={when(s.createdAt)} />
        </dl>
      </section>
      {mayCancel || mayResume || mayChange || mayRevoke ? (
        <section aria-labelledby="actions-title">
          <h2 id="actions-title">Actions</h2>
          <ul class="action-list">
            {mayChange ? (
              <li>
                <a href={`${path}/plan`}>Change plan</a>
              </li>
            ) : (
              ""
            )}
            {mayResume ? (
              <li>
                <a href={`${path}/resume`}>Resume subscription</a>
              </li>
            ) : (
              ""
            )}
            {mayCancel ? (
              <li>
                <a href={`${path}/cancel`} class="danger-link">
                  Cancel subscription
                </a>
              </li>
            ) : (
              ""
            )}
            {mayRevoke ? (
              <li>
                <a href={`${path}/revoke-mandate`} class="danger-link">
                  Revoke mandate
                </a>
              </li>
            ) : (
              ""
            )}
          </ul>
        </section>
      ) : (
        readOnly
      )}
      <section aria-labelledby="mandate-title">
        <h2 id="mandate-title">Mandate</h2>
        {mandate ? <MandateFacts mandate={mandate} /> : <p>No mandate yet: the activation has not completed.</p>}
      </section>
      <Operations operations={s.operations} />
    </Shell>
  );
}
