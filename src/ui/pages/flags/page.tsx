/**
 * Feature flags: the boolean features of the catalog per plan (a matrix, each cell switchable through the plan's
 * entitlement routes), the trait rules of the plans, and the way to one company's answer (./company.tsx).
 */
import { ListTable, Notice, Shell } from "../../layout";
import type { PageSession } from "../../session";
import type { CompanyView } from "../customers/page";
import { companyFlagsHref } from "../customers/parts";

export interface FlagFeature {
  id: string;
  name: string;
  featureKey: string;
  featureType: string;
}

export interface PlanGrant {
  featureId: string;
  kind: string;
  enabled: boolean;
  traitKey: string | null;
  traitOperator: string | null;
  traitValue: string | null;
}

export interface FlagPlan {
  id: string;
  name: string;
  kind: string;
  entitlements: PlanGrant[];
}

export interface FlagsProps {
  session: PageSession;
  features: FlagFeature[];
  plans: FlagPlan[];
  /** the company search, and what it found (null: nothing searched) */
  companySearch: string;
  companies: CompanyView[] | null;
  notice?: string | null;
}

export const PATH = "/dashboard/flags";
const ENTITLEMENT_ROUTE = "/dashboard/plans/{id}/entitlements/{feature}";

const OPERATORS: Record<string, string> = { eq: "=", neq: "≠", gt: ">", gte: "≥", lt: "<", lte: "≤" };
export const ruleText = (g: { traitKey: string | null; traitOperator: string | null; traitValue: string | null }) =>
  `${g.traitKey ?? "?"} ${OPERATORS[g.traitOperator ?? ""] ?? g.traitOperator} ${g.traitValue ?? ""}`;

function Cell({ session, plan, feature }: { session: PageSession; plan: FlagPlan; feature: FlagFeature }) {
  const grant = plan.entitlements.find((e) => e.featureId === feature.id);
  const on = grant?.enabled === true;
  const state: string = on ? "On" : grant ? "Off (switched off)" : "Not in plan";
  const canWrite = session.may("PUT", ENTITLEMENT_ROUTE) && session.may("DELETE", ENTITLEMENT_ROUTE);
  const action = `${PATH}/plans/${encodeURIComponent(plan.id)}/${encodeURIComponent(feature.featureKey)}`;
  const button: string = on ? "Turn off" : "Turn on";
  const label = `${button}: ${feature.featureKey} on ${plan.name}`;
  return (
    <td class={on ? "flag-on" : "flag-off"}>
      <span safe>{state}</span>
      {canWrite ? (
        <form method="post" action={action} class="inline">
          <input type="hidden" name="csrf" value={session.csrfToken} />
          <input type="hidden" name="to" value={on ? "off" : "on"} />
          <button type="submit" class="small" aria-label={label} safe>
            {button}
          </button>
        </form>
      ) : (
        ""
      )}
    </td>
  );
}

export function FlagsPage({ session, features, plans, companySearch, companies, notice }: FlagsProps) {
  const booleans = features.filter((f) => f.featureType === "boolean");
  const rules = plans.flatMap((p) =>
    p.entitlements.filter((e) => e.kind === "trait").map((e) => ({ plan: p, grant: e, feature: features.find((f) => f.id === e.featureId) })),
  );
  const canWrite = session.may("PUT", ENTITLEMENT_ROUTE);
  const found = companySearch ? `Companies matching “${companySearch}”` : "Companies";
  return (
    <Shell title="Feature flags" session={session} path={PATH}>
      <Notice text={notice} />
      <section aria-labelledby="lookup-title">
        <h2 id="lookup-title">What does a company get?</h2>
        <form method="get" action={PATH} class="search" role="search">
          <label for="company">Find a company (name, email or wallet)</label>
          <input id="company" name="company" type="search" value={companySearch} />
          <button type="submit">Find</button>
        </form>
        {companies === null ? (
          ""
        ) : (
          <ListTable
            id="found-title"
            title={found}
            empty="No company matches."
            columns={["Company", "Your id", "Email"]}
            rows={companies.map((c) => (
              <tr>
                <td>
                  <a href={companyFlagsHref(c.id)} safe>
                    {c.name || c.externalId || c.id}
                  </a>
                </td>
                <td safe>{c.externalId || "—"}</td>
                <td safe>{c.email || "—"}</td>
              </tr>
            ))}
          />
        )}
      </section>
      <section aria-labelledby="matrix-title">
        <h2 id="matrix-title">Boolean features per plan</h2>
        <p class="hint">
          Turning a flag on sets the plan's entitlement; turning it off takes it off the plan. Companies on the plan get the change at once, unless
          they have an override of their own.
        </p>
        {booleans.length === 0 || plans.length === 0 ? (
          <p>No boolean features or no plans yet.</p>
        ) : (
          <div class="table-wrap" tabindex="0">
            <table class="flag-matrix">
              <thead>
                <tr>
                  <th scope="col">Feature</th>
                  {plans.map((p) => {
                    const heading = p.kind === "add_on" ? `${p.name} (add-on)` : p.name;
                    return (
                      <th scope="col" safe>
                        {heading}
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {booleans.map((f) => (
                  <tr>
                    <th scope="row">
                      <span safe>{f.name}</span> <code safe>{f.featureKey}</code>
                    </th>
                    {plans.map((p) => (
                      <Cell session={session} plan={p} feature={f} />
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {canWrite ? "" : <p class="hint">Your role lets you read the catalog, not change it.</p>}
      </section>
      <ListTable
        id="rules-title"
        title="Trait rules"
        empty="No plan grants a feature by a trait rule."
        columns={["Plan", "Feature", "Rule on the company's traits", "State"]}
        rows={rules.map(({ plan, grant, feature }) => {
          const state: string = grant.enabled ? "On" : "Switched off";
          return (
            <tr>
              <td safe>{plan.name}</td>
              <td>
                <code safe>{feature?.featureKey ?? grant.featureId}</code>
              </td>
              <td safe>{ruleText(grant)}</td>
              <td safe>{state}</td>
            </tr>
          );
        })}
      />
    </Shell>
  );
}
