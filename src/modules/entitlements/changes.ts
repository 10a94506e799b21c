/**
 * Cache coherence between instances. Every write that changes what a check would answer publishes a
 * change on the `entitlement_changes` channel inside its own transaction, so the notice is delivered
 * at commit, in commit order, to every instance (this one included):
 *   catalog  a tenant's features, plans or entitlements changed: drop its catalog snapshot
 *   company  a company's plan, add-ons, traits or overrides changed: drop its cached state
 *   usage    counters and credit lots after a metering batch or a credit grant: apply the new values
 */
import { queries, run, type Db } from "../../db/queries";
import type { Environment } from "../../auth/kinds";

const Q = queries(["entitlement_change_notify"]);

export const CHANGE_CHANNEL = "entitlement_changes";

type Tenant = { teamId: string; environment: Environment };

/** One counter's value after a batch: company, feature, period start (ms), used. */
export type CounterValue = [companyId: string, featureId: string, periodStart: number, used: string];
/** One company's spendable credit lots after a batch or a grant: [remaining (decimal string), expiresAt ms or null]. */
export type BalanceValue = [companyId: string, lots: [remaining: string, expiresAt: number | null][]];

export type Change =
  | { k: "catalog"; t: string; e: Environment }
  | { k: "company"; t: string; e: Environment; c: string }
  | { k: "usage"; t: string; e: Environment; counters: CounterValue[]; balances: BalanceValue[] };

// NOTIFY payloads must stay under 8000 bytes; usage changes are split to fit.
const MAX_PAYLOAD_BYTES = 7_000;

export async function publishChange(db: Db, change: Change): Promise<void> {
  await run(db, Q.entitlement_change_notify, [JSON.stringify(change)]);
}

export const publishCatalogChanged = (db: Db, tenant: Tenant) => publishChange(db, { k: "catalog", t: tenant.teamId, e: tenant.environment });

export const publishCompanyChanged = (db: Db, tenant: Tenant, companyId: string) =>
  publishChange(db, { k: "company", t: tenant.teamId, e: tenant.environment, c: companyId });

/** Splits one tenant's usage values into notices that each fit a NOTIFY payload. */
export function usageChanges(tenant: Tenant, counters: CounterValue[], balances: BalanceValue[]): Change[] {
  const out: Change[] = [];
  let current: Extract<Change, { k: "usage" }> = { k: "usage", t: tenant.teamId, e: tenant.environment, counters: [], balances: [] };
  let size = 200;
  const push = (bytes: number) => {
    if (size + bytes > MAX_PAYLOAD_BYTES) {
      out.push(current);
      current = { k: "usage", t: tenant.teamId, e: tenant.environment, counters: [], balances: [] };
      size = 200;
    }
    size += bytes;
  };
  for (const c of counters) {
    push(JSON.stringify(c).length + 1);
    current.counters.push(c);
  }
  for (const b of balances) {
    push(JSON.stringify(b).length + 1);
    current.balances.push(b);
  }
  if (current.counters.length > 0 || current.balances.length > 0) out.push(current);
  return out;
}
