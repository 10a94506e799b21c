/**
 * POST /events: identify upserts and consumes nothing; track records the event and, when its name is
 * a feature's featureKey or eventKey, enforces that feature first (spec, Events, behaviour 1-3).
 */
import type { Principal } from "../../auth/kinds";
import { apiError } from "../../lib/errors";
import { assertCompanyRef, assertUserRef } from "../customers/identify";
import { enforcementOf, evaluate, refusal, type EntitlementDeps } from "../entitlements/service";
import type { MeterRequest } from "../entitlements/usage";
import { assertEmbedCompany, existingCompanyId, planTrackIdentity, upsertIdentity, type IdentityDeps } from "./identity";
import type { EventBody } from "./schemas";

type Deps = EntitlementDeps & IdentityDeps;

export async function ingestEvent(
  deps: Deps,
  principal: Principal,
  body: EventBody,
): Promise<{ ok: true; data: { companyId: string | null; userId: string | null } }> {
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
  const withTraits = <R extends { traits?: Record<string, unknown> }>(ref: R | undefined): R | undefined =>
    ref ? { ...ref, traits: { ...ref.traits, ...body.traits } } : ref;
  return user ? upsertIdentity(deps, principal, company, withTraits(user)) : upsertIdentity(deps, principal, withTraits(company), undefined);
}

/**
 * A track whose name is a feature's key is enforced first (spec, Events): the use is decided against
 * the company as it stands, and who the event is about (a new company or user, new traits, a wallet)
 * is written only when the use goes ahead, in the same transaction as the event (the meter runs the
 * writes inside its batch). A refusal writes nothing about who it is about. The decision from memory
 * can only be behind the database's when another instance spent the last units a moment ago: the
 * meter, deciding under the counter's lock, has the last word either way.
 */
async function track(deps: Deps, principal: Principal, body: EventBody) {
  if (!body.name) throw apiError("validation_failed", "Validation failed", { "body.name": "Required for track events" });
  const catalog = await deps.entitlements.catalog(principal);
  const feature = catalog.featureForEvent(body.name);
  if (!feature) {
    // Nothing is enforced, so the use is always accepted: who it is about is written before it is recorded.
    const who = await planTrackIdentity(deps, principal, body);
    return settle(deps, principal, body, {
      companyId: who.companyId,
      userId: who.userId,
      featureId: null,
      enforcement: { kind: "record" },
      identity: who.write && { when: "before", write: who.write },
    });
  }
  if (!body.company && principal.kind !== "embed") {
    throw apiError("validation_failed", "Validation failed", {
      "body.company": `'${body.name}' is a metered feature: name the company (id, wallet or email)`,
    });
  }
  const existing = await existingCompanyId(deps, principal, body.company);
  const company = existing === null ? null : await deps.entitlements.company(principal, existing);
  const evaluation = evaluate({ catalog, company }, feature, deps.clock.now());
  const enforcement = enforcementOf(evaluation);
  // An unknown company has no grant: refused whatever happens, so nothing about it is planned.
  if (!company) return settle(deps, principal, body, { companyId: null, userId: principal.userId ?? null, featureId: feature.id, enforcement });
  const who = await planTrackIdentity(deps, principal, body, company.id);
  return settle(deps, principal, body, {
    companyId: company.id,
    userId: who.userId,
    featureId: feature.id,
    enforcement,
    identity: who.write && { when: "ifAccepted", write: who.write },
  });
}

/** Meters one track event; a refusal is thrown as the spec's 402 or 429. */
async function settle(
  deps: Deps,
  principal: Principal,
  body: EventBody,
  use: Pick<MeterRequest, "companyId" | "userId" | "featureId" | "enforcement" | "identity">,
) {
  const result = await deps.entitlements.meter.submit({
    teamId: principal.teamId,
    environment: principal.environment,
    source: "events",
    name: body.name!,
    quantity: 1n,
    traits: body.traits ?? {},
    idempotencyKey: body.idempotencyKey ?? null,
    ...use,
  });
  if (result.outcome !== "accepted") throw refusal(result.outcome);
  return { companyId: result.companyId, userId: result.userId };
}
