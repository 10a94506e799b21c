/**
 * Plan shapes for the dashboard routes: a plan (or add-on) with its prices, on-chain ids and entitlements.
 * Amounts are decimal strings with six fractional digits ("29.000000"), the currency the settlement
 * token's symbol.
 */
import { t, type Static } from "elysia";

import { NonBlankText } from "../../../http/non-blank-text";

export const BILLING_PERIODS = ["monthly", "yearly"] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];
export const PLAN_KINDS = ["plan", "add_on"] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];
export const MAX_TRIAL_DAYS = 365;
/** On-chain plan ids: a uint256 in decimal or hex, a Solana or Stellar address, a symbol. */
export const ONCHAIN_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

const Period = t.Union([t.Literal("monthly"), t.Literal("yearly")]);
const Kind = t.Union([t.Literal("plan"), t.Literal("add_on")], { description: "`plan` (a company's activePlanId) or `add_on` (in activeAddOnIds)" });
const Amount = t.String({
  maxLength: 64,
  description: "Decimal string, at most 6 fractional digits, greater than 0 (no exponent, no sign)",
  examples: ["29.00"],
});
// Not all whitespace, as a name (src/http/non-blank-text.ts): a blank tier labels nothing.
const Tier = (description?: string) =>
  t.String({
    minLength: 1,
    maxLength: 100,
    pattern: "\\S",
    "x-expected": "Expected a string of 1 to 100 characters, not all whitespace",
    ...(description ? { description } : {}),
  });
const Currency = t.String({ minLength: 1, maxLength: 32, description: "A settlement token's symbol (USDC), any case" });

export const PriceInput = t.Object({ billingPeriod: Period, amount: Amount, currency: Currency }, { $id: "PriceInput" });
export const PriceSet = t.Object({ amount: Amount, currency: Currency }, { $id: "PriceSet", examples: [{ amount: "29.00", currency: "USDC" }] });

const OnchainIds = t.Record(t.String(), t.String({ minLength: 1, maxLength: 128 }), {
  description: "Network id (chain registry) -> the plan's on-chain id there, unique per team, environment and network",
});

export const PlanCreate = t.Object(
  {
    name: NonBlankText(),
    kind: t.Optional(Kind),
    tier: t.Optional(Tier("Default standard")),
    description: t.Optional(t.String({ maxLength: 2000 })),
    trialDays: t.Optional(t.Integer({ minimum: 0, maximum: MAX_TRIAL_DAYS, description: "Default 0" })),
    prices: t.Optional(t.Array(PriceInput, { maxItems: 2, description: "At most one per billing period" })),
    onchainPlanIds: t.Optional(OnchainIds),
  },
  {
    $id: "PlanCreate",
    examples: [
      {
        name: "Pro",
        tier: "pro",
        trialDays: 14,
        prices: [{ billingPeriod: "monthly", amount: "29.00", currency: "USDC" }],
        onchainPlanIds: { base: "7" },
      },
    ],
  },
);
export type PlanCreate = Static<typeof PlanCreate>;

export const PlanPatch = t.Object(
  {
    name: t.Optional(NonBlankText()),
    kind: t.Optional(Kind),
    tier: t.Optional(Tier()),
    description: t.Optional(t.Union([t.String({ maxLength: 2000 }), t.Null()])),
    trialDays: t.Optional(t.Integer({ minimum: 0, maximum: MAX_TRIAL_DAYS })),
    onchainPlanIds: t.Optional(
      t.Record(t.String(), t.Union([t.String({ minLength: 1, maxLength: 128 }), t.Null()]), {
        description: "Per network: a new on-chain id, or null to remove it; networks not named keep theirs",
      }),
    ),
    archived: t.Optional(t.Boolean({ description: "true archives the plan, false restores it" })),
  },
  { $id: "PlanPatch", examples: [{ trialDays: 30, onchainPlanIds: { base: "8" } }] },
);
export type PlanPatch = Static<typeof PlanPatch>;

const Nullable = <S extends ReturnType<typeof t.String>>(s: S) => t.Union([s, t.Null()]);

export const PlanPrice = t.Object(
  { billingPeriod: Period, amount: t.String({ description: "Six fractional digits" }), currency: t.String() },
  { $id: "PlanPrice", examples: [{ billingPeriod: "monthly", amount: "29.000000", currency: "USDC" }] },
);

export const PlanEntitlement = t.Object(
  {
    id: t.String(),
    planId: t.String(),
    featureId: t.String(),
    featureKey: t.String(),
    kind: t.String({ description: "boolean, quota, credit or trait" }),
    enabled: t.Boolean(),
    limit: Nullable(t.String({ description: "quota: units per period (integer string)" })),
    period: Nullable(t.String()),
    creditsPerUse: Nullable(t.String()),
    traitKey: Nullable(t.String()),
    traitOperator: Nullable(t.String()),
    traitValue: Nullable(t.String()),
    featureArchived: t.Boolean({ description: "The feature is archived: this entitlement grants nothing until it is restored" }),
  },
  { $id: "PlanEntitlement" },
);

export const Plan = t.Object(
  {
    id: t.String({ description: "plan_…" }),
    kind: Kind,
    name: t.String(),
    tier: t.String(),
    description: Nullable(t.String()),
    trialDays: t.Integer(),
    prices: t.Array(PlanPrice),
    onchainPlanIds: t.Record(t.String(), t.String()),
    entitlements: t.Optional(t.Array(PlanEntitlement, { description: "On single-plan responses (not in lists)" })),
    archived: t.Boolean(),
    archivedAt: Nullable(t.String({ format: "date-time" })),
    createdAt: t.String({ format: "date-time" }),
    updatedAt: t.String({ format: "date-time" }),
  },
  { $id: "Plan" },
);
