/**
 * One company: its details and traits, plan and add-ons, subscription, usage against its limits and credits (the
 * answer of GET /entitlements for it), invoices, recent events and users. Each part is what the API answered; a part
 * the member's roles cannot read says so instead.
 */
import { ListTable, Shell, when } from "../../layout";
import type { PageSession } from "../../session";
import type { CompanyView, UserView } from "./page";
import { companyFlagsHref, Facts, traitText } from "./parts";

/** A feature as GET /check answers it. */
export interface CheckView {
  featureId: string;
  featureKey: string;
  featureType: string;
  access: boolean;
  reason: string;
  kind: string | null;
  source: string | null;
  planId: string | null;
  limit: number | null;
  used: number | null;
  remaining: number | null;
  period: string | null;
  periodEnd: string | null;
  creditsPerUse: string | null;
  creditBalance: string | null;
}

export interface OverrideView {
  featureId: string;
  featureKey: string;
  kind: string;
  enabled: boolean;
  limit: string | null;
  period: string | null;
  creditsPerUse: string | null;
  traitKey: string | null;
  traitOperator: string | null;
  traitValue: string | null;
}

export interface EntitlementsView {
  companyId: string;
  planId: string | null;
  addOnIds: string[];
  features: CheckView[];
  overrides: OverrideView[];
}

export interface SubscriptionView {
  id: string;
  status: string;
  planId: string;
  billingPeriod: string;
  price: string;
  currency: string;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
}

export interface InvoiceView {
  id: string;
  number: string;
  status: string;
  currency: string;
  total: string;
  amountOutstanding: string;
  companyId: string | null;
  issuedAt?: string;
  createdAt: string;
}

/** How many of its newest invoices a company's page shows; the invoice list filtered by company has the rest. */
export const COMPANY_INVOICES = 20;

/** The company's newest invoices, and whether it has more. */
export interface CompanyInvoices {
  data: InvoiceView[];
  more: boolean;
}

export interface EventView {
  id: string;
  name: string;
  userId: string | null;
  traits: Record<string, unknown>;
  sentAt: string;
}

export interface CompanyDetailProps {
  session: PageSession;
  company: CompanyView;
  planNames: Map<string, string>;
  /** null: the member's roles do not let them read that part */
  entitlements: EntitlementsView | null;
  subscriptions: SubscriptionView[] | null;
  invoices: CompanyInvoices | null;
  events: EventView[] | null;
  users: UserView[] | null;
}

const NOT_READABLE: string = "Your role does not let you read this.";
const propertiesText = (e: EventView): string => (Object.keys(e.traits).length ? JSON.stringify(e.traits) : "—");

/** How a feature's use stands: a quota's use against its limit, a credit balance, or the check's reason. */
export function usageText(f: CheckView): string {
  if (f.kind === "quota" && f.limit !== null) {
    const resets = f.periodEnd ? `, resets ${when(f.periodEnd)}` : "";
    return `${f.used ?? 0} of ${f.limit} used (${f.remaining ?? 0} left${resets})`;
  }
  if (f.kind === "credit") return `${f.creditBalance ?? "0"} credits left, ${f.creditsPerUse ?? "?"} per use`;
  return "—";
}

export const accessText = (f: CheckView): string => (f.access ? "Yes" : "No");
export const sourceText = (f: CheckView, planNames: Map<string, string>) =>
  f.source === "override"
    ? "Company override"
    : f.planId
      ? `${f.source === "add_on" ? "Add-on" : "Plan"} ${planNames.get(f.planId) ?? f.planId}`
      : "—";

export function CompanyDetailPage({ session, company, planNames, entitlements, subscriptions, invoices, events, users }: CompanyDetailProps) {
  const name = company.name || company.externalId || company.id;
  const path = `/dashboard/customers/${encodeURIComponent(company.id)}`;
  const plan = company.activePlanId ? (planNames.get(company.activePlanId) ?? company.activePlanId) : "No plan";
  const addOns = company.activeAddOnIds.map((id) => planNames.get(id) ?? id).join(", ") || "None";
  const traits = Object.entries(company.traits);
  const metered = entitlements?.features.filter((f) => f.kind === "quota" || f.kind === "credit") ?? [];
  return (
    <Shell title={`Company ${name}`} session={session} path={path}>
      <p>
        <a href="/dashboard/customers">All companies</a> · <a href={companyFlagsHref(company.id)}>Flags and overrides for this company</a>
      </p>
      <section aria-labelledby="details-title">
        <h2 id="details-title">Details</h2>
        <Facts
          items={[
            ["Our id", company.id],
            ["Your id", company.externalId],
            ["Name", company.name],
            ["Email", company.email],
            ["Wallet", company.walletAddress],
            ["Plan", plan],
            ["Add-ons", addOns],
            ["Billing anchor", when(company.billingAnchor)],
            ["Created", when(company.createdAt)],
            ["Last seen", when(company.lastSeenAt)],
          ]}
        />
      </section>
      <ListTable
        id="traits-title"
        title="Traits"
        empty="No traits."
        columns={["Trait", "Value"]}
        rows={traits.map(([key, value]) => (
          <tr>
            <th scope="row" safe>
              {key}
            </th>
            <td safe>{traitText(value)}</td>
          </tr>
        ))}
      />
      {subscriptions === null ? (
        <Unreadable id="subscription-title" title="Subscription" />
      ) : (
        <ListTable
          id="subscription-title"
          title="Subscription"
          empty="No subscription."
          columns={["Subscription", "Status", "Plan", "Price", "Current period", "At period end"]}
          rows={subscriptions.map((s) => {
            const period = `${when(s.currentPeriodStart)} – ${when(s.currentPeriodEnd)}`;
            const end: string = s.cancelAtPeriodEnd ? "Cancels" : "Renews";
            return (
              <tr>
                <td>
                  <a href={`/dashboard/subscriptions/${encodeURIComponent(s.id)}`} safe>
                    {s.id}
                  </a>
                </td>
                <td safe>{s.status}</td>
                <td safe>{planNames.get(s.planId) ?? s.planId}</td>
                <td safe>{`${s.price} ${s.currency} / ${s.billingPeriod}`}</td>
                <td safe>{period}</td>
                <td safe>{end}</td>
              </tr>
            );
          })}
        />
      )}
      {entitlements === null ? (
        <Unreadable id="usage-title" title="Usage and credits" />
      ) : (
        <ListTable
          id="usage-title"
          title="Usage and credits"
          empty="No metered feature: nothing the company uses counts against a limit or credits."
          columns={["Feature", "Kind", "Use", "Allowed now"]}
          rows={metered.map((f) => (
            <tr>
              <td>
                <code safe>{f.featureKey}</code>
              </td>
              <td safe>{f.kind ?? "—"}</td>
              <td safe>{usageText(f)}</td>
              <td safe>{accessText(f)}</td>
            </tr>
          ))}
        >
          <p>
            <a href={companyFlagsHref(company.id)}>Every feature as GET /check answers it, and this company's overrides</a>
          </p>
        </ListTable>
      )}
      {invoices === null ? (
        <Unreadable id="invoices-title" title="Invoices" />
      ) : (
        <ListTable
          id="invoices-title"
          title="Invoices"
          empty="No invoices."
          columns={["Number", "Status", "Total", "Outstanding", "Issued"]}
          rows={invoices.data.map((i) => (
            <tr>
              <td>
                <a href={`/dashboard/invoices/${encodeURIComponent(i.id)}`} safe>
                  {i.number}
                </a>
              </td>
              <td safe>{i.status}</td>
              <td safe>{`${i.total} ${i.currency}`}</td>
              <td safe>{`${i.amountOutstanding} ${i.currency}`}</td>
              <td safe>{when(i.issuedAt ?? null)}</td>
            </tr>
          ))}
        >
          {invoices.more ? (
            <p>
              <a href={`/dashboard/invoices?companyId=${encodeURIComponent(company.id)}`}>More invoices</a>
            </p>
          ) : (
            ""
          )}
        </ListTable>
      )}
      {events === null ? (
        <Unreadable id="events-title" title="Recent events" />
      ) : (
        <ListTable
          id="events-title"
          title="Recent events"
          empty="No events."
          columns={["When", "Event", "User", "Properties"]}
          rows={events.map((e) => (
            <tr>
              <td safe>{when(e.sentAt)}</td>
              <td>
                <code safe>{e.name}</code>
              </td>
              <td safe>{e.userId ?? "—"}</td>
              <td safe>{propertiesText(e)}</td>
            </tr>
          ))}
        />
      )}
      {users === null ? (
        <Unreadable id="users-title" title="Users" />
      ) : (
        <ListTable
          id="users-title"
          title="Users"
          empty="No users."
          columns={["Name", "Email", "Your id", "Last seen"]}
          rows={users.map((u) => (
            <tr>
              <td safe>{u.name || "—"}</td>
              <td safe>{u.email || "—"}</td>
              <td safe>{u.externalId || "—"}</td>
              <td safe>{when(u.lastSeenAt)}</td>
            </tr>
          ))}
        />
      )}
    </Shell>
  );
}

function Unreadable({ id, title }: { id: string; title: string }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} safe>
        {title}
      </h2>
      <p class="hint" safe>
        {NOT_READABLE}
      </p>
    </section>
  );
}
