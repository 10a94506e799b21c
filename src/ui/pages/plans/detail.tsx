/**
 * One plan or add-on: what it is, its prices and entitlements with their forms (set, remove after a
 * confirmation), its edit form, and the way to archive or delete it (or restore it when archived).
 */
import { Field, FormError, ListTable, type Option, Select, Shell, when } from "../../layout";
import type { PageSession } from "../../session";
import { type EntitlementView, KIND_OPTIONS, kindLabel, PATH, PERIOD_OPTIONS, type PlanView, type PriceView, statusText } from "./page";
import { Check, ConfirmPage, type FormState, DoneNotice, ReadOnly, yesNo } from "../../forms";
import { onchainText } from "./shared";

export interface FeatureChoice {
  featureKey: string;
  name: string;
  featureType: string;
}

/** Which of the page's forms was refused, with what was typed. */
export type PlanForm = FormState & { which: "edit" | "price" | "entitlement" };

export interface PlanDetailProps {
  session: PageSession;
  plan: PlanView;
  features: FeatureChoice[];
  form?: PlanForm;
  done?: string;
  /** the feature whose entitlement the form starts from (the row's "Change" link) */
  change?: string;
}

/** An entitlement as the set form's values, to change it. */
const entitlementValues = (e: EntitlementView): Record<string, string> => ({
  entFeature: e.featureKey,
  entKind: e.kind,
  entEnabled: e.enabled ? "on" : "",
  entLimit: e.limit ?? "",
  entPeriod: e.period ?? "",
  entCreditsPerUse: e.creditsPerUse ?? "",
  entTraitKey: e.traitKey ?? "",
  entTraitOperator: e.traitOperator ?? "",
  entTraitValue: e.traitValue ?? "",
});

const NOTICES = {
  created: "Plan created.",
  updated: "Changes saved.",
  "price-set": "Price saved.",
  "price-removed": "Price removed.",
  "entitlement-set": "Entitlement saved: companies on this plan have it now.",
  "entitlement-removed": "Entitlement removed: companies on this plan lost what it granted.",
  archived: "The plan was archived, not deleted: companies, payment links, sessions or coupons still refer to it. It takes no new prices.",
  restored: "The plan was restored.",
};

const ENTITLEMENT_KINDS: Option[] = [
  { value: "boolean", label: "Boolean (on or off)" },
  { value: "quota", label: "Quota (a limit per period)" },
  { value: "credit", label: "Credit (credits per use)" },
  { value: "trait", label: "Trait (a rule on a company trait)" },
];
const QUOTA_PERIODS: Option[] = [{ value: "", label: "—" }, ...["day", "week", "month", "lifetime"].map((p) => ({ value: p, label: p }))];
const OPERATORS: Option[] = [{ value: "", label: "—" }, ...["eq", "neq", "gt", "gte", "lt", "lte"].map((o) => ({ value: o, label: o }))];

/** What an entitlement grants, in words. */
export function terms(e: EntitlementView): string {
  if (e.kind === "quota") return `${e.limit ?? "?"} per ${e.period ?? "?"}`;
  if (e.kind === "credit") return `${e.creditsPerUse ?? "?"} credits per use`;
  if (e.kind === "trait") return `trait ${e.traitKey ?? "?"} ${e.traitOperator ?? "?"} ${e.traitValue ?? ""}`;
  return "on or off";
}

const planPath = (plan: { id: string }) => `${PATH}/${encodeURIComponent(plan.id)}`;
const entitlementNote = (e: EntitlementView): string => (e.featureArchived ? "Feature archived: grants nothing" : "");

export function PlanDetailPage({ session, plan, features, form, done, change }: PlanDetailProps) {
  const here = planPath(plan);
  const canEdit = session.may("PATCH", `${PATH}/{id}`);
  const canPrice = session.may("PUT", `${PATH}/{id}/prices/{period}`);
  const canEntitle = session.may("PUT", `${PATH}/{id}/entitlements/{feature}`);
  const canRemove = session.may("DELETE", `${PATH}/{id}`);
  const mayRemovePrice = session.may("DELETE", `${PATH}/{id}/prices/{period}`);
  const mayRemoveEntitlement = session.may("DELETE", `${PATH}/{id}/entitlements/{feature}`);
  const of = (which: PlanForm["which"]) => (form?.which === which ? form : undefined);
  const edit = of("edit");
  const price = of("price");
  const ent = of("entitlement");
  const ev = edit?.values;
  const pv = price?.values ?? {};
  const changing = (plan.entitlements ?? []).find((e) => e.featureKey === change);
  const nv = ent?.values ?? (changing ? entitlementValues(changing) : undefined);
  const entitlements = plan.entitlements ?? [];
  const status = plan.archivedAt ? `Archived ${when(plan.archivedAt)}` : statusText(null);
  const onchain = onchainText(plan.onchainPlanIds);
  return (
    <Shell title={`${kindLabel(plan.kind)}: ${plan.name}`} session={session} path={PATH}>
      <DoneNotice notices={NOTICES} done={done} />
      <p>
        <a href={PATH}>All plans</a>
      </p>
      <dl class="facts">
        <dt>Id</dt>
        <dd>
          <code safe>{plan.id}</code>
        </dd>
        <dt>Kind</dt>
        <dd safe>{kindLabel(plan.kind)}</dd>
        <dt>Tier</dt>
        <dd safe>{plan.tier}</dd>
        <dt>Trial days</dt>
        <dd safe>{String(plan.trialDays)}</dd>
        <dt>Description</dt>
        <dd safe>{plan.description || "—"}</dd>
        <dt>On-chain ids</dt>
        <dd safe>{onchain || "—"}</dd>
        <dt>Status</dt>
        <dd safe>{status}</dd>
        <dt>Created</dt>
        <dd safe>{when(plan.createdAt)}</dd>
      </dl>

      <ListTable
        id="prices-title"
        title="Prices"
        empty="No price: the plan is free."
        columns={["Billing period", "Amount", "Currency", ...(mayRemovePrice ? ["Action"] : [])]}
        rows={plan.prices.map((p: PriceView) => (
          <tr>
            <td safe>{p.billingPeriod}</td>
            <td safe>{p.amount}</td>
            <td safe>{p.currency}</td>
            {mayRemovePrice ? (
              <td>
                <a href={`${here}/prices/${encodeURIComponent(p.billingPeriod)}/remove`} class="danger-link">
                  Remove<span class="visually-hidden" safe>{` the ${p.billingPeriod} price`}</span>
                </a>
              </td>
            ) : (
              ""
            )}
          </tr>
        ))}
      >
        {canPrice && !plan.archived ? (
          <form method="post" action={`${here}/prices`} class="stack" aria-labelledby="price-title">
            <h3 id="price-title">Set a price</h3>
            <FormError message={price?.error ?? null} />
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <Select
              name="priceBillingPeriod"
              label="Billing period"
              options={PERIOD_OPTIONS}
              value={pv.priceBillingPeriod}
              error={price?.fields.priceBillingPeriod}
              hint="Replaces the plan's price for that period, if it has one."
            />
            <Field
              name="priceAmount"
              label="Amount"
              value={pv.priceAmount}
              error={price?.fields.priceAmount}
              hint="A decimal, at most 6 fractional digits, above 0 (29.00)."
              required
            />
            <Field
              name="priceCurrency"
              label="Currency"
              value={pv.priceCurrency}
              error={price?.fields.priceCurrency}
              hint="A settlement token's symbol (USDC)."
              required
            />
            <button type="submit" class="primary">
              Set price
            </button>
          </form>
        ) : (
          ""
        )}
      </ListTable>

      <ListTable
        id="entitlements-title"
        title="Entitlements"
        empty="No entitlements: the plan grants no feature yet."
        columns={["Feature", "Kind", "Enabled", "Grants", "Note", ...(mayRemoveEntitlement ? ["Actions"] : [])]}
        rows={entitlements.map((e) => (
          <tr>
            <td>
              <code safe>{e.featureKey}</code>
            </td>
            <td safe>{e.kind}</td>
            <td safe>{yesNo(e.enabled)}</td>
            <td safe>{terms(e)}</td>
            <td safe>{entitlementNote(e)}</td>
            {mayRemoveEntitlement ? (
              <td>
                {canEntitle ? (
                  <>
                    <a href={`${here}?change=${encodeURIComponent(e.featureKey)}#entitlement-title`}>
                      Change<span class="visually-hidden" safe>{` ${e.featureKey}`}</span>
                    </a>{" "}
                  </>
                ) : (
                  ""
                )}
                <a href={`${here}/entitlements/${encodeURIComponent(e.featureKey)}/remove`} class="danger-link">
                  Remove<span class="visually-hidden" safe>{` ${e.featureKey}`}</span>
                </a>
              </td>
            ) : (
              ""
            )}
          </tr>
        ))}
      >
        {canEntitle ? (
          <form method="post" action={`${here}/entitlements`} class="stack" aria-labelledby="entitlement-title">
            <h3 id="entitlement-title">Set an entitlement</h3>
            <FormError message={ent?.error ?? null} />
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <Select
              name="entFeature"
              label="Feature"
              options={features.map((x) => ({ value: x.featureKey, label: `${x.name} (${x.featureKey}, ${x.featureType})` }))}
              value={nv?.entFeature}
              error={ent?.fields.entFeature}
              hint="Replaces the feature's entitlement on this plan, if it has one."
            />
            <Select
              name="entKind"
              label="Entitlement kind"
              options={ENTITLEMENT_KINDS}
              value={nv?.entKind ?? "boolean"}
              error={ent?.fields.entKind}
              hint="Quota and credit need an event feature; trait a trait feature."
            />
            <Check name="entEnabled" label="Enabled" checked={nv ? nv.entEnabled === "on" : true} error={ent?.fields.entEnabled} />
            <Field
              name="entLimit"
              label="Limit (quota)"
              value={nv?.entLimit}
              error={ent?.fields.entLimit}
              hint="A whole number of uses per period."
            />
            <Select name="entPeriod" label="Period (quota)" options={QUOTA_PERIODS} value={nv?.entPeriod ?? ""} error={ent?.fields.entPeriod} />
            <Field name="entCreditsPerUse" label="Credits per use (credit)" value={nv?.entCreditsPerUse} error={ent?.fields.entCreditsPerUse} />
            <Field name="entTraitKey" label="Trait key (trait)" value={nv?.entTraitKey} error={ent?.fields.entTraitKey} />
            <Select
              name="entTraitOperator"
              label="Trait operator (trait)"
              options={OPERATORS}
              value={nv?.entTraitOperator ?? ""}
              error={ent?.fields.entTraitOperator}
            />
            <Field name="entTraitValue" label="Trait value (trait)" value={nv?.entTraitValue} error={ent?.fields.entTraitValue} />
            <button type="submit" class="primary">
              Set entitlement
            </button>
          </form>
        ) : (
          ""
        )}
      </ListTable>

      {canEdit ? (
        <section aria-labelledby="edit-title">
          <h2 id="edit-title">Edit</h2>
          <FormError message={edit?.error ?? null} />
          <form method="post" action={`${here}/edit`} class="stack">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <Field name="name" label="Name" value={ev ? ev.name : plan.name} error={edit?.fields.name} required />
            <Select name="planKind" label="Plan kind" options={KIND_OPTIONS} value={ev ? ev.planKind : plan.kind} error={edit?.fields.planKind} />
            <Field name="tier" label="Tier" value={ev ? ev.tier : plan.tier} error={edit?.fields.tier} />
            <Field name="description" label="Description" value={ev ? ev.description : (plan.description ?? "")} error={edit?.fields.description} />
            <Field
              name="onchainPlanIds"
              label="On-chain plan ids"
              value={ev ? ev.onchainPlanIds : onchainText(plan.onchainPlanIds)}
              error={edit?.fields.onchainPlanIds}
              hint="network=id, comma-separated; a network left out loses its id."
            />
            <Field
              name="trialDays"
              label="Trial days"
              value={ev ? ev.trialDays : String(plan.trialDays)}
              error={edit?.fields.trialDays}
              hint="0 to 365."
            />
            <button type="submit" class="primary">
              Save changes
            </button>
          </form>
          {plan.archived ? (
            <form method="post" action={`${here}/restore`} class="actions">
              <input type="hidden" name="csrf" value={session.csrfToken} />
              <button type="submit">Restore plan</button>
            </form>
          ) : (
            ""
          )}
        </section>
      ) : (
        ""
      )}
      {canRemove && !plan.archived ? (
        <p>
          <a href={`${here}/remove`} class="danger-link">
            Archive or delete this plan
          </a>
        </p>
      ) : (
        ""
      )}
      {canEdit || canPrice || canEntitle ? "" : <ReadOnly what="plans" />}
    </Shell>
  );
}

/** Before DELETE /dashboard/plans/{id}: the API deletes an unused plan and archives one in use, and says which. */
export function RemovePlanPage({ session, plan, error }: { session: PageSession; plan: PlanView; error?: string | null }) {
  const here = planPath(plan);
  return (
    <ConfirmPage
      session={session}
      title={`Archive or delete ${plan.name}`}
      path={PATH}
      action={`${here}/remove`}
      button="Archive or delete"
      back={here}
      error={error}
    >
      <p>
        Remove the <span safe>{kindLabel(plan.kind).toLowerCase()}</span> <strong safe>{plan.name}</strong> (<code safe>{plan.id}</code>)?
      </p>
      <ul>
        <li>
          If companies are on it, or payment links, checkout sessions or coupons refer to it, it is archived: it leaves the lists and takes no new
          prices, and companies on it keep their entitlements. It can be restored.
        </li>
        <li>Otherwise it is deleted with its prices and entitlements. This cannot be undone.</li>
      </ul>
      <p>The next page says which happened.</p>
    </ConfirmPage>
  );
}

export function RemovePricePage({ session, plan, price }: { session: PageSession; plan: PlanView; price: PriceView }) {
  const here = planPath(plan);
  const action = `${here}/prices/${encodeURIComponent(price.billingPeriod)}/remove`;
  return (
    <ConfirmPage session={session} title="Remove a price" path={PATH} action={action} button="Remove price" back={here}>
      <p>
        Remove the <span safe>{price.billingPeriod}</span> price (<span safe>{`${price.amount} ${price.currency}`}</span>) of{" "}
        <strong safe>{plan.name}</strong>? It can no longer be bought for that period; subscriptions already running keep their terms.
      </p>
    </ConfirmPage>
  );
}

export function RemoveEntitlementPage({ session, plan, entitlement }: { session: PageSession; plan: PlanView; entitlement: EntitlementView }) {
  const here = planPath(plan);
  const action = `${here}/entitlements/${encodeURIComponent(entitlement.featureKey)}/remove`;
  return (
    <ConfirmPage session={session} title="Remove an entitlement" path={PATH} action={action} button="Remove entitlement" back={here}>
      <p>
        Remove <code safe>{entitlement.featureKey}</code> (<span safe>{terms(entitlement)}</span>) from <strong safe>{plan.name}</strong>? Companies
        on the plan lose it at once; their own overrides stay.
      </p>
    </ConfirmPage>
  );
}
