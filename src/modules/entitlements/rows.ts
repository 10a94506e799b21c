/** Database row types of the entitlement reads and writes. */
import type { EntitlementKind } from "../catalog/schemas";
import type { Period, TraitOperator } from "./compute";

/** The grant columns a plan entitlement and a company override share. */
export interface GrantRow {
  kind: EntitlementKind;
  enabled: boolean;
  limit_amount: bigint | string | null;
  period: Period | null;
  credits_per_use: bigint | string | null;
  trait_key: string | null;
  trait_operator: TraitOperator | null;
  trait_value: string | null;
}

export type OverrideTuple = [
  string,
  EntitlementKind,
  boolean,
  string | null,
  Period | null,
  string | null,
  string | null,
  TraitOperator | null,
  string | null,
];

/** A company as company_state_find.sql answers it: its facts, overrides, counters and credit lots. */
export interface StateRow {
  id: string;
  external_id: string | null;
  name: string | null;
  email: string | null;
  wallet_address: string | null;
  traits: Record<string, unknown>;
  active_plan_id: string | null;
  active_add_on_ids: string[];
  billing_anchor: Date;
  overrides: OverrideTuple[];
  counters: [string, number, string][];
  lots: [string, number | null][];
}

export interface CreditGrant {
  id: string;
  company_id: string;
  amount: bigint;
  remaining: bigint;
  reason: string | null;
  expires_at: Date | null;
  created_at: Date;
}
