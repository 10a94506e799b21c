/** `override set | remove`, `company plan`, `credit grant`: what one company gets beyond the catalog. */
import { presentOverride, presentRemovedOverride } from "../modules/catalog/present";
import { assignPlan, removeOverride, setOverride } from "../modules/customers/plan";
import { featureIdOf } from "../modules/catalog/features/read";
import { grantCredits } from "../modules/entitlements/credits";
import { presentCompany } from "../modules/customers/present";
import { presentCreditGrant } from "../modules/entitlements/credits";
import { ENVIRONMENT_OPTION, TEAM_OPTION, isoDate, tenant, wholeNumber } from "./args";
import { GRANT_OPTIONS, parseGrant } from "./catalog";
import { command, type OptionSpec } from "./command";

const COMPANY_OPTION: Record<string, OptionSpec> = {
  company: { value: "<company>", help: "Our comp_ id, your id for it, its wallet or its email", required: true },
};

export const companyCommands = [
  command({
    name: "override set",
    summary: "Override one feature's entitlement for one company (replaces what its plans grant)",
    options: { ...TEAM_OPTION, ...COMPANY_OPTION, ...GRANT_OPTIONS },
    parse: (a) => ({ tenant: tenant(a), override: { company: a.company!, ...parseGrant(a) } }),
    run: async ({ sql }, { tenant, override }) =>
      presentOverride(await setOverride(sql, tenant, { ...override, featureId: await featureIdOf(sql, tenant, override.featureId) })),
  }),
  command({
    name: "override remove",
    summary: "Remove a company's override: its plans' entitlements apply again",
    options: { ...TEAM_OPTION, ...COMPANY_OPTION, feature: { value: "<feature id>", help: "cflag_…", required: true }, ...ENVIRONMENT_OPTION },
    parse: (a) => ({ tenant: tenant(a), company: a.company!, featureId: a.feature! }),
    run: async ({ sql }, { tenant, ...which }) => presentRemovedOverride(await removeOverride(sql, tenant, which)),
  }),
  command({
    name: "company plan",
    summary: "Put a company on a plan (the first plan sets its billing anchor)",
    options: { ...TEAM_OPTION, ...COMPANY_OPTION, plan: { value: "<plan id>", help: "plan_…", required: true }, ...ENVIRONMENT_OPTION },
    parse: (a) => ({ tenant: tenant(a), company: a.company!, planId: a.plan! }),
    run: async ({ sql }, { tenant, company, planId }) => presentCompany(await assignPlan(sql, tenant, { company, planId })),
  }),
  command({
    name: "credit grant",
    summary: "Grant credits to a company",
    options: {
      ...TEAM_OPTION,
      ...COMPANY_OPTION,
      amount: { value: "<N>", help: "Whole credits, at least 1", required: true },
      reason: { value: "<text>", help: "" },
      "expires-at": { value: "<ISO date>", help: "Default never" },
      ...ENVIRONMENT_OPTION,
    },
    parse: (a) => ({
      tenant: tenant(a),
      grant: {
        company: a.company!,
        amount: wholeNumber("amount", a.amount!, 1n),
        reason: a.reason,
        expiresAt: isoDate("expires-at", a["expires-at"]),
      },
    }),
    run: async ({ sql, now }, { tenant, grant }) => presentCreditGrant(await grantCredits(sql, tenant, grant, now)),
  }),
];
