/**
 * What one company gets, feature by feature: the answer of GET /check for each (from the API's company entitlements
 * route), its overrides, and the controls that change them: a flag on or off for this company, a trait rule, the
 * override removed after a confirmation (its plans apply again).
 */
import { Field, FormError, ListTable, Notice, Select, Shell } from "../../layout";
import type { PageSession } from "../../session";
import { accessText, sourceText, usageText, type CheckView, type EntitlementsView, type OverrideView } from "../customers/detail";
import type { CompanyView } from "../customers/page";
import { companyFlagsHref, companyHref } from "../customers/parts";
import { ruleText } from "./page";

export const OVERRIDE_ROUTE = "/dashboard/companies/{id}/overrides/{feature}";
export const TRAIT_OPERATORS = ["eq", "neq", "gt", "gte", "lt", "lte"] as const;

export interface RuleForm {
  values: Record<string, string>;
  error: string | null;
  fields: Record<string, string>;
}

export interface CompanyFlagsProps {
  session: PageSession;
  company: CompanyView;
  entitlements: EntitlementsView;
  planNames: Map<string, string>;
  notice?: string | null;
  rule?: RuleForm;
  /** a refusal of a switch, shown above the table */
  error?: string | null;
}

export const companyName = (c: CompanyView) => c.name || c.externalId || c.id;

const overrideText = (o: OverrideView): string => {
  const state = o.enabled ? "" : " (switched off)";
  switch (o.kind) {
    case "boolean":
      return o.enabled ? "On" : "Off";
    case "trait":
      return `Trait rule ${ruleText(o)}${state}`;
    case "quota":
      return `Quota ${o.limit} per ${o.period}${state}`;
    default:
      return `${o.creditsPerUse} credits per use${state}`;
  }
};

function Controls({
  session,
  company,
  feature,
  override,
}: {
  session: PageSession;
  company: CompanyView;
  feature: CheckView;
  override?: OverrideView;
}) {
  const base = `${companyFlagsHref(company.id)}/overrides/${encodeURIComponent(feature.featureKey)}`;
  const to = feature.access ? "off" : "on";
  const button: string = feature.access ? "Turn off for this company" : "Turn on for this company";
  return (
    <td class="controls">
      {feature.featureType === "boolean" ? (
        <form method="post" action={base} class="inline">
          <input type="hidden" name="csrf" value={session.csrfToken} />
          <input type="hidden" name="to" value={to} />
          <button type="submit" class="small" aria-label={`${button}: ${feature.featureKey}`} safe>
            {button}
          </button>
        </form>
      ) : (
        ""
      )}
      {override ? (
        <a href={`${base}/remove`} class="danger-link" aria-label={`Remove the override of ${feature.featureKey}`}>
          Remove override
        </a>
      ) : (
        ""
      )}
    </td>
  );
}

export function CompanyFlagsPage({ session, company, entitlements, planNames, notice, rule, error }: CompanyFlagsProps) {
  const name = companyName(company);
  const path = companyFlagsHref(company.id);
  const canWrite = session.may("PUT", OVERRIDE_ROUTE) && session.may("DELETE", OVERRIDE_ROUTE);
  const overrides = new Map(entitlements.overrides.map((o) => [o.featureId, o]));
  const traitFeatures = entitlements.features.filter((f) => f.featureType === "trait").map((f) => f.featureKey);
  const plan = entitlements.planId ? (planNames.get(entitlements.planId) ?? entitlements.planId) : "no plan";
  const columns = ["Feature", "Allowed now", "Reason", "From", "Use", ...(canWrite ? ["Change"] : [])];
  return (
    <Shell title={`Flags for ${name}`} session={session} path={path}>
      <p>
        <a href="/dashboard/flags">All flags</a> · <a href={companyHref(company.id)}>The company's page</a>
      </p>
      <Notice text={notice} />
      <FormError message={error ?? null} />
      <ListTable
        id="answer-title"
        title={`What ${name} gets now (as GET /check answers)`}
        empty="The catalog has no features yet."
        columns={columns}
        lead={
          <p class="hint">
            On <span safe>{plan}</span>. A company override replaces what the plan and add-ons grant for that feature.
          </p>
        }
        rows={entitlements.features.map((f) => {
          const override = overrides.get(f.featureId);
          const detail = override && f.kind === "trait" ? ruleText(override) : usageText(f);
          return (
            <tr class={f.access ? "flag-on" : "flag-off"}>
              <th scope="row">
                <code safe>{f.featureKey}</code>{" "}
                <span class="hint" safe>
                  {f.featureType}
                </span>
              </th>
              <td safe>{accessText(f)}</td>
              <td>
                <code safe>{f.reason}</code>
              </td>
              <td safe>{sourceText(f, planNames)}</td>
              <td safe>{detail}</td>
              {canWrite ? <Controls session={session} company={company} feature={f} override={override} /> : ""}
            </tr>
          );
        })}
      />
      <ListTable
        id="overrides-title"
        title="This company's overrides"
        empty="None: the company gets what its plan and add-ons grant."
        columns={["Feature", "Override"]}
        rows={entitlements.overrides.map((o) => (
          <tr>
            <td>
              <code safe>{o.featureKey}</code>
            </td>
            <td safe>{overrideText(o)}</td>
          </tr>
        ))}
      />
      {canWrite && traitFeatures.length > 0 ? (
        <section aria-labelledby="rule-title">
          <h2 id="rule-title">Set a trait rule for this company</h2>
          <p class="hint">The feature is on for this company while its trait compares as the rule says (numbers as numbers, else as text).</p>
          <FormError message={rule?.error ?? null} />
          <form method="post" action={`${path}/rules`} class="stack">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <Select name="feature" label="Feature" options={traitFeatures} value={rule?.values.feature} error={rule?.fields.feature} />
            <Field name="traitKey" label="Trait" value={rule?.values.traitKey} error={rule?.fields.traitKey} />
            <Select
              name="traitOperator"
              label="Comparison"
              options={TRAIT_OPERATORS}
              value={rule?.values.traitOperator ?? "eq"}
              error={rule?.fields.traitOperator}
            />
            <Field name="traitValue" label="Value" value={rule?.values.traitValue} error={rule?.fields.traitValue} />
            <button type="submit" class="primary">
              Set trait rule
            </button>
          </form>
        </section>
      ) : (
        ""
      )}
      {canWrite ? "" : <p class="hint">Your role lets you read what this company gets, not change it.</p>}
    </Shell>
  );
}

export function RemoveOverridePage({ session, company, override }: { session: PageSession; company: CompanyView; override: OverrideView }) {
  const name = companyName(company);
  const path = companyFlagsHref(company.id);
  return (
    <Shell title="Remove override" session={session} path={path}>
      <p>
        Remove the override of <code safe>{override.featureKey}</code> (<span safe>{overrideText(override)}</span>) for <strong safe>{name}</strong>?
        What its plan and add-ons grant applies again, at once.
      </p>
      <form method="post" action={`${path}/overrides/${encodeURIComponent(override.featureKey)}/remove`} class="actions">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <button type="submit" class="danger">
          Remove override
        </button>
        <a href={path}>Cancel</a>
      </form>
    </Shell>
  );
}
