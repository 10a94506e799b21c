/** `plan create`, `feature create`, `entitlement set`: the catalog from the operator's shell (pricing.ts has the rest). */
import { ENTITLEMENT_KINDS, FEATURE_TYPES } from "../modules/catalog/schemas";
import { presentFeature, presentPlanEntitlement } from "../modules/catalog/present";
import { createFeature } from "../modules/catalog/features/edit";
import { setEntitlement, type EntitlementInput } from "../modules/catalog/entitlements/edit";
import { featureIdOf } from "../modules/catalog/features/read";
import { presentPlanRecord } from "../modules/catalog/plans/present";
import { createPlanRecord } from "../modules/catalog/plans/edit";
import { OPERATOR } from "../modules/teams/roles";
import { ENVIRONMENT_OPTION, TEAM_OPTION, list, oneOf, optionalWholeNumber, tenant, wholeNumber } from "./args";
import { UsageError, command, type Args, type Options } from "./command";

const PERIODS = ["day", "week", "month", "lifetime"] as const;
const TRAIT_OPERATORS = ["eq", "neq", "gt", "gte", "lt", "lte"] as const;

/** The options of a grant, shared by `entitlement set` (on a plan) and `override set` (for one company). */
export const GRANT_OPTIONS: Options = {
  feature: { value: "<id or key>", help: "cflag_… or the featureKey", required: true },
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
    summary: "Create a plan or add-on, with its prices",
    options: {
      ...TEAM_OPTION,
      name: { value: "<name>", help: "", required: true },
      kind: { value: "plan|add_on", help: "Default plan" },
      tier: { value: "<tier>", help: "Default standard" },
      description: { value: "<text>", help: "" },
      "trial-days": { value: "<N>", help: "0 to 365" },
      "price-monthly": { value: "<decimal>", help: "e.g. 29.00" },
      "price-yearly": { value: "<decimal>", help: "e.g. 290.00" },
      currency: { value: "<symbol>", help: "Of the prices: a token the environment settles in; default USDC" },
      onchain: { value: "<network=id,…>", help: "The plan's on-chain id per network" },
      ...ENVIRONMENT_OPTION,
    },
    parse: (a) => {
      const currency = a.currency ?? "USDC";
      const prices = (
        [
          ["monthly", a["price-monthly"]],
          ["yearly", a["price-yearly"]],
        ] as const
      )
        .filter(([, amount]) => amount !== undefined)
        .map(([billingPeriod, amount]) => ({ billingPeriod, amount: amount!, currency }));
      const onchain = Object.fromEntries(
        (list(a.onchain) ?? []).map((pair) => {
          const [network, id] = pair.split("=");
          if (!network || !id) throw new UsageError("--onchain takes network=id pairs separated by commas");
          return [network, id];
        }),
      );
      return {
        tenant: tenant(a),
        plan: {
          name: a.name!,
          kind: oneOf("kind", a.kind, ["plan", "add_on"] as const),
          tier: a.tier,
          description: a.description,
          trialDays: a["trial-days"] === undefined ? undefined : Number(wholeNumber("trial-days", a["trial-days"])),
          prices,
          onchainPlanIds: onchain,
        },
      };
    },
    run: async (ctx, { tenant, plan }) =>
      presentPlanRecord(
        await createPlanRecord({ sql: ctx.sql, chains: ctx.config.chains, now: () => new Date(ctx.now), fieldPrefix: "" }, tenant, OPERATOR, plan),
      ),
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
    run: async ({ sql }, { tenant, grant }) =>
      presentPlanEntitlement(await setEntitlement(sql, tenant, { ...grant, featureId: await featureIdOf(sql, tenant, grant.featureId) })),
  }),
];
