/** Shapes of the dashboard's view of one company's entitlements and of its overrides (docs/customers.md#entitlements-and-overrides). */
import { t, type Static } from "elysia";
import { CheckQuery, CheckResult, EntitlementsData } from "../schemas";

const Nullable = <S extends Parameters<typeof t.Union>[0][number]>(s: S) => t.Union([s, t.Null()]);

export const CompanyParams = t.Object({
  id: t.String({ minLength: 1, maxLength: 200, description: "Our comp_… id or your id for the company" }),
});

export const OverrideParams = t.Object({
  id: t.String({ minLength: 1, maxLength: 200, description: "Our comp_… id or your id for the company" }),
  feature: t.String({ minLength: 1, maxLength: 200, description: "The feature's cflag_ id or its featureKey" }),
});

/** GET /check's query without `company` (the path names it). */
export const CompanyCheckQuery = t.Omit(CheckQuery, ["company"]);

/** A company's override of one feature as it applies now: the grant, as a plan entitlement's. */
export const CompanyOverride = t.Object(
  {
    featureId: t.String(),
    featureKey: t.String(),
    kind: t.Union([t.Literal("boolean"), t.Literal("quota"), t.Literal("credit"), t.Literal("trait")]),
    enabled: t.Boolean(),
    limit: Nullable(t.String({ description: "Quota: units per period (integer, as a string)" })),
    period: Nullable(t.Union([t.Literal("day"), t.Literal("week"), t.Literal("month"), t.Literal("lifetime")])),
    creditsPerUse: Nullable(t.String({ description: "Credit: credits per unit (integer, as a string)" })),
    traitKey: Nullable(t.String()),
    traitOperator: Nullable(t.String()),
    traitValue: Nullable(t.String()),
  },
  { $id: "CompanyOverride" },
);
export type CompanyOverride = Static<typeof CompanyOverride>;

export const CompanyEntitlements = t.Object(
  {
    ...EntitlementsData.properties,
    overrides: t.Array(CompanyOverride, {
      description: "The company's own overrides, by featureKey; each replaces what its plans grant for that feature",
    }),
  },
  { $id: "CompanyEntitlements" },
);

/** What PUT answers: the override as stored. */
export const OverrideRecord = t.Object(
  {
    id: t.String(),
    companyId: t.String(),
    featureId: t.String(),
    kind: t.String(),
    enabled: t.Boolean(),
    limit: Nullable(t.String()),
    period: Nullable(t.String()),
    creditsPerUse: Nullable(t.String()),
    traitKey: Nullable(t.String()),
    traitOperator: Nullable(t.String()),
    traitValue: Nullable(t.String()),
  },
  { $id: "CompanyOverrideRecord" },
);

/** What DELETE answers: which override it was. */
export const RemovedOverride = t.Object(
  { id: t.String(), companyId: t.String(), featureId: t.String(), kind: t.String() },
  { $id: "RemovedCompanyOverride" },
);

export { CheckResult };
