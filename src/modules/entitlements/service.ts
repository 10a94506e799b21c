/**
 * Entitlement use cases: check one feature, list all of a company's entitlements, consume units.
 * Reads come from the instance's caches (no database read per check); consumes go through the meter.
 */
import type { Principal } from "../../auth/kinds";
import type { Clock } from "../../lib/clock";
import { ApiError, apiError } from "../../lib/errors";
import { andThen, type MaybePromise } from "../../lib/maybe-promise";
import type { CatalogSnapshot, FeatureDef } from "./catalog";
import type { CompanyState } from "./company-state";
import { decide, resolveGrant, type Decision, type Grant, type PeriodBounds } from "./compute";
import type { Enforcement, MeterResult, Outcome } from "./usage";
import type { EntitlementLookups, EntitlementRuntime } from "./runtime";
import type { CheckResult, EntitlementsData, FlagData } from "./schemas";

export interface Evaluation {
  feature: FeatureDef;
  company: CompanyState | null;
  grant: Grant | null;
  decision: Decision;
}

/**
 * The company a call is about. Embed tokens act for their own company only: naming another one is a
 * 403, naming none means theirs. Every other credential must name it (our comp_ id or the integrator's).
 */
export function companyRefFor(
  deps: { entitlements: EntitlementLookups },
  principal: Principal,
  ref: string | undefined,
  field: string,
): MaybePromise<string> {
  if (principal.kind === "embed") {
    const own = principal.companyId!;
    if (ref === undefined || ref === own) return own;
    return andThen(deps.entitlements.company(principal, ref), (company) => {
      if (company?.id !== own) throw apiError("wrong_company", "This token is scoped to another company");
      return own;
    });
  }
  if (!ref) throw apiError("validation_failed", "Validation failed", { [field]: "Required: the company's id (comp_…) or your id for it" });
  return ref;
}

/**
 * `quantity` more units of `feature` for the company `loaded` holds (null: not known), under the tenant's
 * catalog it holds, at `now`.
 */
export function evaluate(loaded: Pick<Loaded, "catalog" | "company">, feature: FeatureDef, now: number, quantity = 1n): Evaluation {
  const { catalog, company } = loaded;
  if (!company) return { feature, company, grant: null, decision: { ...decide(null, EMPTY_FACTS, now), reason: "company_not_found" } };
  const grant =
    company.overrides.get(feature.id) ??
    (company.addOnIds.length === 0
      ? catalog.planGrant(company.planId, feature.id)
      : resolveGrant(undefined, catalog.planGrants(company.planId, company.addOnIds, feature.id)));
  return { feature, company, grant, decision: decide(grant, company, now, quantity) };
}

const EMPTY_FACTS = { anchorMs: 0, traits: {}, counters: new Map<string, bigint>(), lots: [] };

/** What the meter must enforce for a use of `feature` under the evaluated grant. */
export function enforcementOf(e: Evaluation): Enforcement {
  const { grant, decision } = e;
  if (!grant || !grant.enabled) return { kind: "deny" };
  switch (grant.kind) {
    case "boolean":
      return { kind: "record" };
    case "trait":
      return decision.access ? { kind: "record" } : { kind: "deny" };
    case "quota":
      return { kind: "quota", periodStart: decision.period!.start, limit: grant.limit! };
    case "credit":
      return { kind: "credit", creditsPerUse: grant.creditsPerUse! };
  }
}

/** The refusal of a metered use, in the spec's words (402 credits; 429 quota or feature not enabled). */
export function refusal(outcome: Exclude<Outcome, "accepted">): ApiError {
  switch (outcome) {
    case "insufficient_credits":
      return apiError("insufficient_credits", "Insufficient credits");
    case "limit_reached":
      return apiError("limit_reached", "Limit reached");
    case "feature_not_enabled":
      return apiError("feature_not_enabled", "Feature not enabled");
  }
}

// Period bounds are shared by every check of a period (see currentPeriod): format each once.
const isoStrings = new WeakMap<PeriodBounds, { start: string; end: string | null }>();
function isoOf(period: PeriodBounds) {
  let out = isoStrings.get(period);
  if (!out)
    isoStrings.set(
      period,
      (out = { start: new Date(period.start).toISOString(), end: period.end === null ? null : new Date(period.end).toISOString() }),
    );
  return out;
}
const count = (n: bigint | null) => (n === null ? null : Number(n));

export function present(e: Evaluation, companyRef: string): CheckResult {
  const { decision: d, grant } = e;
  const period = d.period ? isoOf(d.period) : null;
  return {
    companyId: e.company?.id ?? companyRef,
    featureId: e.feature.id,
    featureKey: e.feature.key,
    featureType: e.feature.type,
    access: d.access,
    reason: d.reason,
    kind: grant?.kind ?? null,
    source: grant?.source ?? null,
    planId: grant?.planId ?? null,
    limit: count(d.limit),
    used: count(d.used),
    remaining: count(d.remaining),
    period: grant?.kind === "quota" ? grant.period : null,
    periodStart: grant?.kind === "quota" && grant.period !== "lifetime" ? (period?.start ?? null) : null,
    periodEnd: period?.end ?? null,
    creditsPerUse: d.creditsPerUse?.toString() ?? null,
    creditBalance: d.creditBalance?.toString() ?? null,
  };
}

export interface EntitlementDeps {
  entitlements: EntitlementRuntime;
  clock: Clock;
}

/** What reads need: the lookups (loading, or from memory only) and the clock. */
export interface LookupDeps {
  entitlements: EntitlementLookups;
  clock: Clock;
}

export interface Loaded {
  catalog: CatalogSnapshot;
  company: CompanyState | null;
  companyRef: string;
}

/** The tenant's catalog and the company a call names: from memory, without a promise, when both are cached. */
function load(deps: LookupDeps, principal: Principal, ref: string | undefined, field: string): MaybePromise<Loaded> {
  return andThen(companyRefFor(deps, principal, ref, field), (companyRef) => {
    const catalog = deps.entitlements.catalog(principal);
    const company = deps.entitlements.company(principal, companyRef);
    if (catalog instanceof Promise || company instanceof Promise) {
      return Promise.all([catalog, company]).then(([c, co]) => ({ catalog: c, company: co, companyRef }));
    }
    return { catalog, company, companyRef };
  });
}

function requireFeature(catalog: CatalogSnapshot, ref: string): FeatureDef {
  const feature = catalog.feature(ref);
  if (!feature) throw apiError("not_found", `No feature ${ref}`);
  return feature;
}

export function checkFeature(
  deps: LookupDeps,
  principal: Principal,
  query: { company?: string; feature: string; quantity?: string },
): MaybePromise<CheckResult> {
  return andThen(load(deps, principal, query.company, "query.company"), (loaded) => {
    const feature = requireFeature(loaded.catalog, query.feature);
    return present(evaluate(loaded, feature, deps.clock.now(), query.quantity === undefined ? 1n : BigInt(query.quantity)), loaded.companyRef);
  });
}

/** GET /flags/check: `access` of the check as an on/off value. */
export function checkFlag(deps: LookupDeps, principal: Principal, query: { company?: string; flag: string }): MaybePromise<FlagData> {
  return andThen(checkFeature(deps, principal, { company: query.company, feature: query.flag }), (result) => ({
    companyId: result.companyId,
    flag: result.featureKey,
    value: result.access,
    reason: result.reason,
  }));
}

export function listEntitlements(deps: LookupDeps, principal: Principal, query: { company?: string }): MaybePromise<EntitlementsData> {
  return andThen(load(deps, principal, query.company, "query.company"), (loaded) => {
    const { catalog, company, companyRef } = loaded;
    // As /check: a company not identified yet is not an error; it has no plan, so every feature is off.
    const now = deps.clock.now();
    const features = catalog.sorted.map((f) => present(evaluate(loaded, f, now), companyRef));
    return { companyId: company?.id ?? companyRef, planId: company?.planId ?? null, addOnIds: company?.addOnIds ?? [], features };
  });
}

export interface ConsumeInput {
  company?: string;
  feature: string;
  quantity?: number;
  idempotencyKey?: string;
}

export async function consume(
  deps: EntitlementDeps,
  principal: Principal,
  input: ConsumeInput,
): Promise<CheckResult & { eventId: string; consumed: number; replayed: boolean }> {
  const loaded = await load(deps, principal, input.company, "body.company");
  const { catalog, company, companyRef } = loaded;
  const feature = requireFeature(catalog, input.feature);
  if (!company) throw apiError("not_found", `No company ${companyRef}`);
  const quantity = BigInt(input.quantity ?? 1);
  const evaluation = evaluate(loaded, feature, deps.clock.now(), quantity);
  const result: MeterResult = await deps.entitlements.meter.submit({
    teamId: principal.teamId,
    environment: principal.environment,
    source: "consume",
    name: feature.key,
    companyId: company.id,
    userId: principal.kind === "embed" ? (principal.userId ?? null) : null,
    featureId: feature.id,
    quantity,
    traits: {},
    idempotencyKey: input.idempotencyKey ?? null,
    enforcement: enforcementOf(evaluation),
  });
  if (result.outcome !== "accepted") throw refusal(result.outcome);
  // The committed batch has already been applied to this instance's cache: this is the state after the use.
  // (A company too large for a change notice was dropped from the cache instead, and is read again; the
  // use is committed by now, so a failed read must not turn it into an error: the state before it is shown.)
  const current = (await Promise.resolve(deps.entitlements.company(principal, company.id)).catch(() => null)) ?? company;
  const after = present(evaluate({ catalog, company: current }, feature, deps.clock.now()), companyRef);
  return { ...after, eventId: result.eventId, consumed: Number(quantity), replayed: result.replayed };
}
