/** Request and response shapes of the client-safe entitlement endpoints (documented in the OpenAPI document). */
import { t, type Static } from "elysia";
import { IdempotencyKey } from "../../http/idempotency-key";
import { queryCount } from "../../http/pagination";

const Nullable = <S extends Parameters<typeof t.Union>[0][number]>(s: S) => t.Union([s, t.Null()]);

const CompanyParam = t.String({
  minLength: 1,
  maxLength: 200,
  description: "The company: our comp_ id or your id for it. Optional with an embed token (its own company); any other company is 403.",
});

export const CheckQuery = t.Object({
  company: t.Optional(CompanyParam),
  feature: t.String({ minLength: 1, maxLength: 200, description: "featureKey, eventKey or cflag_ id" }),
  quantity: t.Optional(queryCount("Would this many more units be allowed? Default 1.")),
});

export const FlagQuery = t.Object({
  company: t.Optional(CompanyParam),
  flag: t.String({ minLength: 1, maxLength: 200, description: "featureKey, eventKey or cflag_ id" }),
});

export const EntitlementsQuery = t.Object({ company: t.Optional(CompanyParam) });

export const ConsumeBody = t.Object(
  {
    company: t.Optional(CompanyParam),
    feature: t.String({ minLength: 1, maxLength: 200, description: "featureKey, eventKey or cflag_ id" }),
    quantity: t.Optional(t.Integer({ minimum: 1, maximum: 1_000_000, description: "Units to consume, all or nothing (default 1)" })),
    idempotencyKey: t.Optional(IdempotencyKey("A retry with the same key returns the first outcome and consumes nothing more")),
  },
  { $id: "ConsumeRequest", examples: [{ company: "acme", feature: "api-calls", quantity: 1, idempotencyKey: "req-7f3a" }] },
);

export const REASONS = [
  "enabled",
  "within_limit",
  "credits_available",
  "trait_matched",
  "not_in_plan",
  "disabled",
  "limit_reached",
  "insufficient_credits",
  "trait_not_matched",
  "company_not_found",
] as const;

export const CheckResult = t.Object(
  {
    companyId: t.String({ description: "Our comp_ id (or the id asked for, when the company does not exist)" }),
    featureId: t.String(),
    featureKey: t.String(),
    featureType: t.Union([t.Literal("boolean"), t.Literal("event"), t.Literal("trait")]),
    access: t.Boolean({ description: "May the company use the feature (one more unit, or `quantity`) now" }),
    reason: t.UnionEnum(REASONS),
    kind: Nullable(t.Union([t.Literal("boolean"), t.Literal("quota"), t.Literal("credit"), t.Literal("trait")])),
    source: Nullable(
      t.Union([t.Literal("plan"), t.Literal("add_on"), t.Literal("override")], { description: "Where the applying entitlement comes from" }),
    ),
    planId: Nullable(t.String()),
    limit: Nullable(t.Integer({ description: "Quota: units per period" })),
    used: Nullable(t.Integer({ description: "Quota: units used this period" })),
    remaining: Nullable(t.Integer({ description: "Quota: units left this period" })),
    period: Nullable(t.Union([t.Literal("day"), t.Literal("week"), t.Literal("month"), t.Literal("lifetime")])),
    periodStart: Nullable(t.String({ format: "date-time" })),
    periodEnd: Nullable(t.String({ format: "date-time", description: "When the quota resets (on the company's billing anchor)" })),
    creditsPerUse: Nullable(t.String({ description: "Credit-backed: credits burned per unit (integer, as a string)" })),
    creditBalance: Nullable(t.String({ description: "Credit-backed: spendable credits now (integer, as a string)" })),
  },
  {
    $id: "CheckResult",
    examples: [
      {
        companyId: "comp_01JH5Q8T0M3V9X2Y4Z6A8B0C1D",
        featureId: "cflag_01JH5Q8T0M3V9X2Y4Z6A8B0C1G",
        featureKey: "api-calls",
        featureType: "event",
        access: true,
        reason: "within_limit",
        kind: "quota",
        source: "plan",
        planId: "plan_01JH5Q8T0M3V9X2Y4Z6A8B0C1E",
        limit: 1000,
        used: 42,
        remaining: 958,
        period: "month",
        periodStart: "2026-02-15T09:30:00.000Z",
        periodEnd: "2026-03-15T09:30:00.000Z",
        creditsPerUse: null,
        creditBalance: null,
      },
    ],
  },
);
export type CheckResult = Static<typeof CheckResult>;

export const CheckResponse = t.Object({ data: CheckResult });

export const FlagData = t.Object(
  { companyId: t.String(), flag: t.String(), value: t.Boolean(), reason: t.UnionEnum(REASONS) },
  { $id: "Flag", examples: [{ companyId: "comp_01JH5Q8T0M3V9X2Y4Z6A8B0C1D", flag: "sso", value: true, reason: "enabled" }] },
);
export type FlagData = Static<typeof FlagData>;

export const FlagResponse = t.Object({ data: FlagData });

export const EntitlementsData = t.Object(
  {
    companyId: t.String({
      description: "Our comp_ id (or the id asked for, when the company does not exist: then every feature is off, reason company_not_found)",
    }),
    planId: Nullable(t.String()),
    addOnIds: t.Array(t.String()),
    features: t.Array(CheckResult),
  },
  { $id: "Entitlements" },
);
export type EntitlementsData = Static<typeof EntitlementsData>;

export const EntitlementsResponse = t.Object({ data: EntitlementsData });

export const ConsumeResponse = t.Object({
  data: t.Composite([
    CheckResult,
    t.Object({
      eventId: t.String({ description: "The usage record (evt_…)" }),
      consumed: t.Integer(),
      replayed: t.Boolean({ description: "True when this answers a retry of an idempotency key" }),
    }),
  ]),
});
