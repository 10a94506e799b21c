/** Catalog rows to API and CLI records: features, plans, plan entitlements and company overrides. */
import { type Static } from "elysia";
import type { EntitlementKind, Feature, DashboardFeature } from "./schemas";
import type { FeatureRow, PlanRow, GrantRow } from "./rows";

export const presentFeature = (r: FeatureRow): Static<typeof Feature> => ({
  id: r.id,
  name: r.name,
  featureKey: r.feature_key,
  featureType: r.feature_type,
  eventKey: r.event_key,
  icon: r.icon,
  description: r.description,
  linkedPlans: r.linked_plans ?? [],
  createdAt: r.created_at.toISOString(),
});

export const presentDashboardFeature = (r: FeatureRow): Static<typeof DashboardFeature> => ({
  ...presentFeature(r),
  archived: Boolean(r.archived_at),
  archivedAt: r.archived_at?.toISOString() ?? null,
});

export const presentPlan = (r: PlanRow) => ({
  id: r.id,
  name: r.name,
  tier: r.tier,
  description: r.description,
  createdAt: r.created_at.toISOString(),
});

// Quantities are bigint in the database: printed as integer strings, like the API's creditsPerUse and creditBalance.
const presentGrant = (r: GrantRow) => ({
  id: r.id,
  featureId: r.feature_id,
  kind: r.kind,
  enabled: r.enabled,
  limit: r.limit_amount?.toString() ?? null,
  period: r.period,
  creditsPerUse: r.credits_per_use?.toString() ?? null,
  traitKey: r.trait_key,
  traitOperator: r.trait_operator,
  traitValue: r.trait_value,
});

export const presentPlanEntitlement = (r: GrantRow & { plan_id: string }) => ({ planId: r.plan_id, ...presentGrant(r) });

export const presentOverride = (r: GrantRow & { company_id: string }) => ({ companyId: r.company_id, ...presentGrant(r) });

/** What is left to show of a removed override: which company and feature it was for. */
export const presentRemovedOverride = (r: { id: string; company_id: string; feature_id: string; kind: EntitlementKind }) => ({
  id: r.id,
  companyId: r.company_id,
  featureId: r.feature_id,
  kind: r.kind,
});
