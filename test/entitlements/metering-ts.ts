/** The TypeScript side of a metering case: the facts a cached company holds, what `decide` answers, what a burn leaves. */
import {
  counterKey,
  currentPeriod,
  decide,
  inBurnOrder,
  type CompanyFacts,
  type CreditLot,
  type Decision,
  type Grant,
} from "../../src/modules/entitlements/compute";
import type { Outcome } from "../../src/modules/entitlements/usage";
import type { CaseGrant, CaseInput, MeteringCase } from "./metering-cases";

/** Quotas of the table count per month, on the company's billing anchor. */
export const QUOTA_PERIOD = "month";

export function grantOf(grant: CaseGrant, featureId: string): Grant | null {
  if (grant.kind === "none") return null;
  const base: Grant = {
    featureId,
    kind: "boolean",
    enabled: true,
    limit: null,
    period: null,
    creditsPerUse: null,
    traitKey: null,
    traitOperator: null,
    traitValue: null,
    source: "plan",
    planId: "plan_rules",
  };
  switch (grant.kind) {
    case "boolean":
      return { ...base, enabled: grant.enabled };
    case "trait":
      return { ...base, kind: "trait", traitKey: "seats", traitOperator: "gte", traitValue: grant.minSeats };
    case "quota":
      return { ...base, kind: "quota", limit: grant.limit, period: QUOTA_PERIOD };
    case "credit":
      return { ...base, kind: "credit", creditsPerUse: grant.creditsPerUse };
  }
}

/** Lots as the case lists them (oldest first), expired ones included: the rules must leave those alone. */
const lotsOf = (c: CaseInput, now: number): CreditLot[] =>
  (c.lots ?? []).map((lot) => ({ remaining: lot.remaining, expiresAt: lot.expiresIn === null ? null : now + lot.expiresIn }));

export function factsOf(c: CaseInput, featureId: string, anchorMs: number, now: number): CompanyFacts {
  const company: CompanyFacts = { anchorMs, traits: c.traits ?? {}, counters: new Map(), lots: lotsOf(c, now) };
  const start = currentPeriod(company, QUOTA_PERIOD, now).start;
  if (c.used !== undefined) (company.counters as Map<string, bigint>).set(counterKey(featureId, start), c.used);
  return company;
}

/** The outcome a use gets when the check said `d` (the meter's word for each refusal). */
export function outcomeOf(d: Decision): Outcome {
  if (d.access) return "accepted";
  return d.reason === "limit_reached" || d.reason === "insufficient_credits" ? d.reason : "feature_not_enabled";
}

export interface TsResult {
  decision: Decision;
  outcome: Outcome;
  usedAfter: bigint;
  lotsAfter: bigint[];
}

/** What TypeScript says of one case: `decide`, then the accepted use applied to the counter and, in burn order, to the lots. */
export function tsResult(c: CaseInput, featureId: string, anchorMs: number, now: number): TsResult {
  const facts = factsOf(c, featureId, anchorMs, now);
  const decision = decide(grantOf(c.grant, featureId), facts, now, c.quantity);
  const outcome = outcomeOf(decision);
  const used = c.used ?? 0n;
  const lots = facts.lots.map((lot) => ({ ...lot }));
  if (outcome === "accepted" && c.grant.kind === "credit") {
    let cost = c.grant.creditsPerUse * c.quantity;
    for (const lot of inBurnOrder(lots, now)) {
      const take = lot.remaining < cost ? lot.remaining : cost;
      lot.remaining -= take;
      cost -= take;
    }
  }
  const usedAfter = outcome === "accepted" && c.grant.kind === "quota" ? used + c.quantity : used;
  return { decision, outcome, usedAfter, lotsAfter: lots.map((lot) => lot.remaining) };
}

/** The case's own expectations, defaults filled in. */
export function expectedOf(c: MeteringCase): Omit<TsResult, "decision"> {
  return { outcome: c.outcome, usedAfter: c.usedAfter ?? c.used ?? 0n, lotsAfter: c.lotsAfter ?? (c.lots ?? []).map((lot) => lot.remaining) };
}
