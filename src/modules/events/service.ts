/**
 * POST /events: identify upserts and consumes nothing; track records the event and, when its name is
 * a feature's featureKey or eventKey, enforces that feature first (spec, Events, behaviour 1-3).
 */
import type { Principal } from "../../auth/kinds";
import { apiError } from "../../lib/errors";
import { assertCompanyRef, assertUserRef } from "../customers/identify";
import { enforcementOf, evaluate, refusal, type EntitlementDeps } from "../entitlements/service";
import type { Enforcement } from "../entitlements/meter";
import { assertEmbedCompany, existingCompanyId, resolveTrackIdentity, upsertIdentity, type IdentityDeps } from "./identity";
import type { EventBody } from "./model";

type Deps = EntitlementDeps & IdentityDeps;

export async function ingestEvent(deps: Deps, principal: Principal, body: EventBody): Promise<{ ok: true; data: { companyId: string | null; userId: string | null } }> {
  if (body.company) assertCompanyRef(body.company);
  if (body.user) assertUserRef(body.user);
  return { ok: true, data: body.event_type === "identify" ? await identify(deps, principal, body) : await track(deps, principal, body) };
}

async function identify(deps: Deps, principal: Principal, body: EventBody) {
  if (!body.company && !body.user && principal.kind !== "embed") {
    throw apiError("validation_failed", "Validation failed", { "body.company": "identify needs a company or a user" });
  }
  const user = body.user ?? (principal.kind === "embed" && principal.userId ? { id: principal.userId } : undefined);
  // Top-level traits describe the user when one is named, else the company (Segment's identify).
  await assertEmbedCompany(deps, principal, body.company, user ? undefined : body.traits);
  const company = principal.kind === "embed" ? { id: principal.companyId! } : body.company;
  const withTraits = <R extends { traits?: Record<string, unknown> }>(ref: R | undefined): R | undefined => (ref ? { ...ref, traits: { ...ref.traits, ...body.traits } } : ref);
  return user ? upsertIdentity(deps, principal, company, withTraits(user)) : upsertIdentity(deps, principal, withTraits(company), undefined);
}

/**
 * A track whose name is a feature's key is enforced first (spec, Events): the use is decided against
 * the company as it stands, and who the event is about (a new company or user, new traits, a wallet)
 * is written only when the use goes ahead. A refusal changes nothing but the record of the refusal
 * itself, which an idempotent retry replays. The decision from memory can only be behind the
 * database's when another instance spent the last units a moment ago: then the identity has been
 * merged and the meter, deciding under the counter's lock, still refuses.
 */
async function track(deps: Deps, principal: Principal, body: EventBody) {
  if (!body.name) throw apiError("validation_failed", "Validation failed", { "body.name": "Required for track events" });
  const catalog = await deps.entitlements.catalog(principal);
  const feature = catalog.featureForEvent(body.name);
  if (!feature) {
    const { companyId, userId } = await resolveTrackIdentity(deps, principal, body.company, body.user);
    const settled = await settle(deps, principal, body, { companyId, userId, featureId: null, enforcement: { kind: "record" } });
    return { companyId: settled.companyId, userId: settled.userId };
  }
  if (!body.company && principal.kind !== "embed") {
    throw apiError("validation_failed", "Validation failed", { "body.company": `'${body.name}' is a metered feature: name the company (id, wallet or email)` });
  }
  const existing = await existingCompanyId(deps, principal, body.company);
  const company = existing === null ? null : await deps.entitlements.company(principal, existing);
  const evaluation = evaluate(catalog, feature, company, deps.clock.now());
  const enforcement = enforcementOf(evaluation);
  if (!evaluation.decision.access) {
    const settled = await settle(deps, principal, body, { companyId: company?.id ?? null, userId: principal.userId ?? null, featureId: feature.id, enforcement });
    // Not refused after all: a retry of a use accepted earlier (replayed as it was), or memory was
    // behind the database (say, credits granted on another instance) and the use went ahead.
    if (settled.replayed) return { companyId: settled.companyId, userId: settled.userId };
    const who = await resolveTrackIdentity(deps, principal, body.company, body.user);
    return { companyId: settled.companyId, userId: who.userId };
  }
  const { companyId, userId } = await resolveTrackIdentity(deps, principal, body.company, body.user);
  const settled = await settle(deps, principal, body, { companyId, userId, featureId: feature.id, enforcement });
  return { companyId: settled.companyId, userId: settled.userId };
}

/** Meters one track event; a refusal is thrown as the spec's 402 or 429. */
async function settle(deps: Deps, principal: Principal, body: EventBody, use: { companyId: string | null; userId: string | null; featureId: string | null; enforcement: Enforcement }) {
  const result = await deps.entitlements.meter.submit({
    teamId: principal.teamId,
    environment: principal.environment,
    source: "events",
    name: body.name!,
    companyId: use.companyId,
    userId: use.userId,
    featureId: use.featureId,
    quantity: 1n,
    traits: body.traits ?? {},
    idempotencyKey: body.idempotencyKey ?? null,
    enforcement: use.enforcement,
  });
  if (result.outcome !== "accepted") throw refusal(result.outcome);
  return result;
}
