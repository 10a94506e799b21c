/** `plan create`, `feature create`, `entitlement set`: the catalog, until the dashboard edits it. */
import { ENTITLEMENT_KINDS, FEATURE_TYPES, presentFeature, presentPlan, presentPlanEntitlement } from "../modules/catalog/model";
import { createFeature, createPlan, setEntitlement, type EntitlementInput } from "../modules/catalog/service";
import { ENVIRONMENT_OPTION, TEAM_OPTION, oneOf, optionalWholeNumber, tenant } from "./args";
import { command, type Args, type Options } from "./command";

const PERIODS = ["day", "week", "month", "lifetime"] as const;
const TRAIT_OPERATORS = ["eq", "neq", "gt", "gte", "lt", "lte"] as const;

/** The options of a grant, shared by `entitlement set` (on a plan) and `override set` (for one company). */
export const GRANT_OPTIONS: Options = {
  feature: { value: "<feature id>", help: "cflag_…", required: true },
  kind: {
    value: ENTITLEMENT_KINDS.join("|"),
    help: "boolean: on/off; quota: --limit per --period; credit: --credits-per-use; trait: a rule on a company trait",
    required: true,
  },
  enabled: { value: "true|false", help: "Default true" },
  limit: { value: "<N>", help: "quota: units per period" },
  period: { value: PERIODS.join("|"), help: "quota: when the count resets (on the company's billing anchor)" },
  "credits-per-use": { value: "<N>", help: "credit: credits burned per unit" },
  "trait-key": { value: "<key>", help: "trait: the company trait to compare" },
  "trait-operator": { value: TRAIT_OPERATORS.join("|"), help: "trait" },
  "trait-value": { value: "<value>", help: "trait" },
  ...ENVIRONMENT_OPTION,
};

export function parseGrant(a: Args): Omit<EntitlementInput, "planId"> {
  const enabled = oneOf("enabled", a.enabled, ["true", "false"]);
  return {
    featureId: a.feature!,
    kind: oneOf("kind", a.kind, ENTITLEMENT_KINDS)!,
    enabled: enabled !== "false",
    limit: optionalWholeNumber("limit", a.limit),
    period: oneOf("period", a.period, PERIODS),
    creditsPerUse: optionalWholeNumber("credits-per-use", a["credits-per-use"], 1n),
    traitKey: a["trait-key"],
    traitOperator: oneOf("trait-operator", a["trait-operator"], TRAIT_OPERATORS),
    traitValue: a["trait-value"],
  };
}

export const catalogCommands = [
  command({
    name: "plan create",
    summary: "Create a plan",
    options: {
      ...TEAM_OPTION,
      name: { value: "<name>", help: "", required: true },
      tier: { value: "<tier>", help: "Default standard" },
      description: { value: "<text>", help: "" },
      ...ENVIRONMENT_OPTION,
    },
    parse: (a) => ({ tenant: tenant(a), plan: { name: a.name!, tier: a.tier, description: a.description } }),
    run: async ({ sql }, { tenant, plan }) => presentPlan(await createPlan(sql, tenant, plan)),
  }),
  command({
    name: "feature create",
    summary: "Create a feature",
    options: {
      ...TEAM_OPTION,
      name: { value: "<name>", help: "", required: true },
      key: { value: "<featureKey>", help: "A track event with this name meters the feature; never changes", required: true },
      type: { value: FEATURE_TYPES.join("|"), help: "", required: true },
      "event-key": { value: "<key>", help: "A second track event name" },
      icon: { value: "<icon>", help: "" },
      description: { value: "<text>", help: "" },
      ...ENVIRONMENT_OPTION,
    },
    parse: (a) => ({
      tenant: tenant(a),
      feature: {
        name: a.name!,
        featureKey: a.key!,
        featureType: oneOf("type", a.type, FEATURE_TYPES)!,
        eventKey: a["event-key"],
        icon: a.icon,
        description: a.description,
      },
    }),
    run: async ({ sql }, { tenant, feature }) => presentFeature(await createFeature(sql, tenant, feature)),
  }),
  command({
    name: "entitlement set",
    summary: "Set the entitlement of a feature on a plan (replaces the previous one)",
    options: { ...TEAM_OPTION, plan: { value: "<plan id>", help: "plan_…", required: true }, ...GRANT_OPTIONS },
    parse: (a) => ({ tenant: tenant(a), grant: { planId: a.plan!, ...parseGrant(a) } }),
    run: async ({ sql }, { tenant, grant }) => presentPlanEntitlement(await setEntitlement(sql, tenant, grant)),
  }),
];
