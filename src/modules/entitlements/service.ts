/**
 * Entitlement use cases: check one feature, list all of a company's entitlements, consume units.
 * Reads come from the instance's caches (no database read per check); consumes go through the meter.
 */
import type { Principal } from "../../auth/kinds";
import type { Clock } from "../../lib/clock";
import { ApiError, badRequest, forbidden, notFound } from "../../lib/errors";
import type { CatalogSnapshot, FeatureDef } from "./catalog";
import type { CompanyState } from "./company-state";
import { decide, resolveGrant, type Decision, type Grant } from "./compute";
import type { Enforcement, MeterResult, Outcome } from "./meter";
import type { EntitlementRuntime, Tenant } from "./runtime";
import type { CheckResult } from "./model";

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
export async function companyRefFor(deps: EntitlementDeps, principal: Principal, ref: string | undefined, field: string): Promise<string> {
  if (principal.kind === "embed") {
    if (ref !== undefined && ref !== principal.companyId && (await deps.entitlements.company(principal, ref))?.id !== principal.companyId) {
      throw forbidden("This token is scoped to another company", "wrong_company");
    }
    return principal.companyId!;
  }
  if (!ref) throw badRequest("Validation failed", { [field]: "Required: the company's id (comp_…) or your id for it" });
  return ref;
}

export function evaluate(catalog: CatalogSnapshot, feature: FeatureDef, company: CompanyState | null, now: number, quantity = 1n): Evaluation {
  if (!company) return { feature, company, grant: null, decision: { ...decide(null, EMPTY_FACTS, feature.id, now), reason: "company_not_found" } };
  const grant = resolveGrant(company.overrides.get(feature.id), catalog.planGrants(company.planId, company.addOnIds, feature.id));
  return { feature, company, grant, decision: decide(grant, company, feature.id, now, quantity) };
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
      return new ApiError(402, "Insufficient credits", "insufficient_credits");
    case "limit_reached":
      return new ApiError(429, "Limit reached", "limit_reached");
    case "feature_not_enabled":
      return new ApiError(429, "Feature not enabled", "feature_not_enabled");
  }
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());
const count = (n: bigint | null) => (n === null ? null : Number(n));

export function present(e: Evaluation, companyRef: string): CheckResult {
  const { decision: d, grant } = e;
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
    periodStart: grant?.kind === "quota" && grant.period !== "lifetime" ? iso(d.period?.start) : null,
    periodEnd: iso(d.period?.end),
    creditsPerUse: d.creditsPerUse?.toString() ?? null,
    creditBalance: d.creditBalance?.toString() ?? null,
  };
}

export interface EntitlementDeps {
  entitlements: EntitlementRuntime;
  clock: Clock;
}

async function load(deps: EntitlementDeps, tenant: Tenant, companyRef: string) {
  const [catalog, company] = await Promise.all([deps.entitlements.catalog(tenant), deps.entitlements.company(tenant, companyRef)]);
  return { catalog, company };
}

function requireFeature(catalog: CatalogSnapshot, ref: string): FeatureDef {
  const feature = catalog.feature(ref);
  if (!feature) throw notFound(`No feature ${ref}`);
  return feature;
}

export async function checkFeature(deps: EntitlementDeps, principal: Principal, query: { company?: string; feature: string; quantity?: number }) {
  const companyRef = await companyRefFor(deps, principal, query.company, "query.company");
  const { catalog, company } = await load(deps, principal, companyRef);
  const feature = requireFeature(catalog, query.feature);
  return present(evaluate(catalog, feature, company, deps.clock.now(), BigInt(query.quantity ?? 1)), companyRef);
}

export async function listEntitlements(deps: EntitlementDeps, principal: Principal, query: { company?: string }) {
  const companyRef = await companyRefFor(deps, principal, query.company, "query.company");
  const { catalog, company } = await load(deps, principal, companyRef);
  if (!company) throw notFound(`No company ${companyRef}`);
  const now = deps.clock.now();
  const features = [...catalog.byId.values()].sort((a, b) => a.key.localeCompare(b.key)).map((f) => present(evaluate(catalog, f, company, now), companyRef));
  return { companyId: company.id, planId: company.planId, addOnIds: company.addOnIds, features };
}

export interface ConsumeInput {
  company?: string;
  feature: string;
  quantity?: number;
  idempotencyKey?: string;
}

export async function consume(deps: EntitlementDeps, principal: Principal, input: ConsumeInput): Promise<CheckResult & { eventId: string; consumed: number; replayed: boolean }> {
  const companyRef = await companyRefFor(deps, principal, input.company, "body.company");
  const { catalog, company } = await load(deps, principal, companyRef);
  const feature = requireFeature(catalog, input.feature);
  if (!company) throw notFound(`No company ${companyRef}`);
  const quantity = BigInt(input.quantity ?? 1);
  const evaluation = evaluate(catalog, feature, company, deps.clock.now(), quantity);
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
  const after = present(evaluate(catalog, feature, company, deps.clock.now()), companyRef);
  return { ...after, eventId: result.eventId, consumed: Number(quantity), replayed: result.replayed };
}
