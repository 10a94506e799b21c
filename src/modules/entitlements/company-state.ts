/**
 * What a check needs to know about one company, held in memory: plan, add-ons, anchor, traits,
 * overrides, usage counters of recent periods and spendable credit lots. Loaded in one query on a
 * miss; kept current by the changes published after every write (see src/modules/changes/publish.ts).
 */
import type { Db } from "../../db/queries";
import { toGrant } from "./catalog";
import { findCompanyState } from "./repo";
import type { GrantRow } from "./rows";
import { counterKey, type CompanyFacts, type CreditLot, type Grant } from "./compute";
import type { Tenant } from "../../lib/tenant";
import { DAY_MS } from "../../lib/period";

// Counters of periods that started more than this long ago cannot be current (the longest
// calendar period is 31 days); lifetime counters are always loaded.
const OLDEST_PERIOD_MS = 32 * DAY_MS;

export interface CompanyState extends CompanyFacts {
  id: string;
  externalId: string | null;
  name: string | null;
  email: string | null;
  wallet: string | null;
  planId: string | null;
  addOnIds: string[];
  overrides: Map<string, Grant>;
  counters: Map<string, bigint>;
  lots: CreditLot[];
}

export const toLots = (lots: readonly [string, number | null][]): CreditLot[] =>
  lots.map(([remaining, expiresAt]) => ({ remaining: BigInt(remaining), expiresAt }));

export async function loadCompanyState(db: Db, tenant: Tenant, ref: string, now: number): Promise<CompanyState | null> {
  const row = await findCompanyState(db, tenant, ref, { now: new Date(now), oldestPeriodStart: new Date(now - OLDEST_PERIOD_MS) });
  if (!row) return null;
  const overrides = new Map<string, Grant>();
  for (const [featureId, kind, enabled, limit, period, perUse, traitKey, traitOperator, traitValue] of row.overrides) {
    const grantRow: GrantRow = {
      kind,
      enabled,
      limit_amount: limit,
      period,
      credits_per_use: perUse,
      trait_key: traitKey,
      trait_operator: traitOperator,
      trait_value: traitValue,
    };
    overrides.set(featureId, toGrant(grantRow, featureId, "override", null));
  }
  const counters = new Map<string, bigint>();
  for (const [featureId, periodStart, used] of row.counters) counters.set(counterKey(featureId, Number(periodStart)), BigInt(used));
  return {
    id: row.id,
    externalId: row.external_id,
    name: row.name,
    email: row.email,
    wallet: row.wallet_address,
    traits: row.traits,
    planId: row.active_plan_id,
    addOnIds: row.active_add_on_ids,
    anchorMs: row.billing_anchor.getTime(),
    overrides,
    counters,
    lots: toLots(row.lots),
  };
}
