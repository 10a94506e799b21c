/** Database row types of the catalog: features, plans and the grants a plan entitlement and a company override share. */
import { type Static } from "elysia";
import type { FeatureType, EntitlementKind, LinkedPlan } from "./schemas";

export interface FeatureRow {
  id: string;
  name: string;
  feature_key: string;
  feature_type: FeatureType;
  event_key: string;
  icon: string;
  description: string;
  created_at: Date;
  archived_at?: Date | null;
  linked_plans?: Static<typeof LinkedPlan>[];
}

/** A plan as the CLI shows it (the spec leaves the Plan record "not shown"; these are its columns). */
export interface PlanRow {
  id: string;
  name: string;
  tier: string;
  description: string | null;
  created_at: Date;
}

/** The columns a plan entitlement and a company override share; only those of the row's kind are set. */
export interface GrantRow {
  id: string;
  feature_id: string;
  kind: EntitlementKind;
  enabled: boolean;
  limit_amount: bigint | null;
  period: string | null;
  credits_per_use: bigint | null;
  trait_key: string | null;
  trait_operator: string | null;
  trait_value: string | null;
}
