/**
 * Cache coherence between instances. Every write that changes what a check would answer publishes a
 * change on the `entitlement_changes` channel inside its own transaction, so the notice is delivered
 * at commit, in commit order, to every instance (this one included):
 *   catalog  a tenant's features, plans or entitlements changed: drop its catalog snapshot
 *   company  a company's plan, add-ons, traits or overrides changed: drop its cached state
 *   usage    counters and credit lots after a metering batch or a credit grant: apply the new values
 */
import type { Db } from "../../db/queries";
import { type Environment, type Tenant } from "../../lib/tenant";
import { notifyChange } from "./repo";

export const CHANGE_CHANNEL = "entitlement_changes";

/** One counter's value after a batch: company, feature, period start (ms), used. */
export type CounterValue = [companyId: string, featureId: string, periodStart: number, used: string];
/** One company's spendable credit lots after a batch or a grant: [remaining (decimal string), expiresAt ms or null]. */
export type BalanceValue = [companyId: string, lots: [remaining: string, expiresAt: number | null][]];

export type Change =
  | { k: "catalog"; t: string; e: Environment }
  | { k: "company"; t: string; e: Environment; c: string }
  | { k: "usage"; t: string; e: Environment; counters: CounterValue[]; balances: BalanceValue[] };

// NOTIFY payloads must stay under 8000 bytes.
const MAX_PAYLOAD_BYTES = 7_000;

export async function publishChange(db: Db, change: Change): Promise<void> {
  await notifyChange(db, JSON.stringify(change));
}

export const publishCatalogChanged = (db: Db, tenant: Tenant) => publishChange(db, { k: "catalog", t: tenant.teamId, e: tenant.environment });

export const publishCompanyChanged = (db: Db, tenant: Tenant, companyId: string) =>
  publishChange(db, { k: "company", t: tenant.teamId, e: tenant.environment, c: companyId });

/**
 * A company's spendable credit lots after a grant. A company with so many lots that their values would
 * not fit one notice is sent as a company change instead: every instance then reloads it.
 */
export function publishBalance(db: Db, tenant: Tenant, companyId: string, lots: BalanceValue[1]): Promise<void> {
  const change: Change = { k: "usage", t: tenant.teamId, e: tenant.environment, counters: [], balances: [[companyId, lots]] };
  return JSON.stringify(change).length > MAX_PAYLOAD_BYTES ? publishCompanyChanged(db, tenant, companyId) : publishChange(db, change);
}
