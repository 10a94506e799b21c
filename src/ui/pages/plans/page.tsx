/** Plans and add-ons: the list (by kind, archived ones on request, a page at a time) and the create form. */
import { Field, FormError, ListTable, OnceKey, type Option, Select, Shell } from "../../layout";
import type { PageSession } from "../../session";
import { Check, type FormState, DoneNotice, ReadOnly } from "../../forms";

export interface PriceView {
  billingPeriod: string;
  amount: string;
  currency: string;
}

export interface EntitlementView {
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
  featureArchived: boolean;
}

export interface PlanView {
  id: string;
  kind: "plan" | "add_on";
  name: string;
  tier: string;
  description: string | null;
  trialDays: number;
  prices: PriceView[];
  onchainPlanIds: Record<string, string>;
  entitlements?: EntitlementView[];
  archived: boolean;
  archivedAt: string | null;
  createdAt: string;
}

export interface PlanFilter {
  kind?: "plan" | "add_on";
  includeArchived: boolean;
}

export interface PlansProps {
  session: PageSession;
  plans: PlanView[];
  nextCursor: string | null;
  filter: PlanFilter;
  form?: FormState;
  done?: string;
}

export const PATH = "/dashboard/plans";
export const KIND_OPTIONS: Option[] = [
  { value: "plan", label: "Plan" },
  { value: "add_on", label: "Add-on" },
];
export const PERIOD_OPTIONS: Option[] = [
  { value: "monthly", label: "Monthly" },
  { value: "yearly", label: "Yearly" },
];
const NOTICES = { deleted: "The plan was deleted: nothing referred to it." };

export const kindLabel = (kind: string): string => (kind === "add_on" ? "Add-on" : "Plan");
export const priceText = (p: PriceView): string => `${p.amount} ${p.currency} ${p.billingPeriod}`;
export const statusText = (archivedAt: string | null): string => (archivedAt ? "Archived" : "Active");

/** The list's address with its filter and, for the next page, the cursor. */
export function plansHref(filter: PlanFilter, cursor?: string): string {
  const q = new URLSearchParams();
  if (filter.kind) q.set("kind", filter.kind);
  if (filter.includeArchived) q.set("includeArchived", "true");
  if (cursor) q.set("cursor", cursor);
  const query = q.toString();
  return query ? `${PATH}?${query}` : PATH;
}

export function PlansPage({ session, plans, nextCursor, filter, form, done }: PlansProps) {
  const canWrite = session.may("POST", PATH);
  const v = form?.values ?? {};
  const f = form?.fields ?? {};
  const shown = filter.kind ? `${kindLabel(filter.kind)}s` : "Plans and add-ons";
  return (
    <Shell title="Plans" session={session} path={PATH}>
      <DoneNotice notices={NOTICES} done={done} />
      <p>
        An add-on is a plan of kind "add-on", held beside a company's plan. Credits sold over x402 are{" "}
        <a href="/dashboard/credit-packs">credit packs</a>.
      </p>
      <form method="get" action={PATH} class="filters" aria-label="Filter plans">
        <Select name="kind" label="Kind" options={[{ value: "", label: "Plans and add-ons" }, ...KIND_OPTIONS]} value={filter.kind ?? ""} />
        <Check name="includeArchived" label="Show archived" checked={filter.includeArchived} />
        <button type="submit">Filter</button>
      </form>
      <ListTable
        id="plans-title"
        title={`${shown} in ${session.environment}`}
        empty="No plans here yet."
        columns={["Name", "Kind", "Tier", "Prices", "Trial days", "Status"]}
        rows={plans.map((p) => (
          <tr>
            <td>
              <a href={`${PATH}/${encodeURIComponent(p.id)}`} safe>
                {p.name}
              </a>
            </td>
            <td safe>{kindLabel(p.kind)}</td>
            <td safe>{p.tier}</td>
            <td safe>{p.prices.map(priceText).join(", ") || "—"}</td>
            <td safe>{String(p.trialDays)}</td>
            <td safe>{statusText(p.archivedAt)}</td>
          </tr>
        ))}
      >
        {nextCursor ? (
          <p>
            <a href={plansHref(filter, nextCursor)}>Next page</a>
          </p>
        ) : (
          ""
        )}
      </ListTable>
      {canWrite ? (
        <section aria-labelledby="create-title">
          <h2 id="create-title">Create a plan or add-on</h2>
          <FormError message={form?.error ?? null} />
          <form method="post" action={PATH} class="stack">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <OnceKey />
            <Field name="name" label="Name" value={v.name} error={f.name} required />
            <Select name="planKind" label="Plan kind" options={KIND_OPTIONS} value={v.planKind ?? "plan"} error={f.planKind} />
            <Field name="tier" label="Tier (optional)" value={v.tier} error={f.tier} hint="Default: standard." />
            <Field name="description" label="Description (optional)" value={v.description} error={f.description} />
            <Field name="trialDays" label="Trial days (optional)" value={v.trialDays} error={f.trialDays} hint="0 to 365; default 0." />
            <Field
              name="onchainPlanIds"
              label="On-chain plan ids (optional)"
              value={v.onchainPlanIds}
              error={f.onchainPlanIds}
              hint="network=id, comma-separated (sepolia=7): the plan's id on each chain it is activated on."
            />
            <fieldset>
              <legend>First price (optional; more on the plan's page)</legend>
              <Select
                name="priceBillingPeriod"
                label="Billing period"
                options={PERIOD_OPTIONS}
                value={v.priceBillingPeriod}
                error={f.priceBillingPeriod}
              />
              <Field
                name="priceAmount"
                label="Amount"
                value={v.priceAmount}
                error={f.priceAmount}
                hint="A decimal, at most 6 fractional digits, above 0 (29.00). Empty: no price (a free plan)."
              />
              <Field
                name="priceCurrency"
                label="Currency"
                value={v.priceCurrency}
                error={f.priceCurrency}
                hint="A settlement token's symbol (USDC)."
              />
            </fieldset>
            <button type="submit" class="primary">
              Create plan
            </button>
          </form>
        </section>
      ) : (
        <ReadOnly what="plans" />
      )}
    </Shell>
  );
}
