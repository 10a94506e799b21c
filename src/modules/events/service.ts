/**
 * POST /events: identify upserts and consumes nothing; track records the event and, when its name is
 * a feature's featureKey or eventKey, enforces that feature first (spec, Events, behaviour 1-3).
 */
import type { Principal } from "../../auth/kinds";
import { badRequest } from "../../lib/errors";
import { assertCompanyRef, assertUserRef } from "../customers/identify";
import { enforcementOf, evaluate, refusal, type EntitlementDeps } from "../entitlements/service";
import type { Enforcement } from "../entitlements/meter";
import { assertEmbedCompany, resolveTrackIdentity, upsertIdentity, type IdentityDeps } from "./identity";
import type { EventBody } from "./model";

type Deps = EntitlementDeps & IdentityDeps;

export async function ingestEvent(deps: Deps, principal: Principal, body: EventBody): Promise<{ ok: true; data: { companyId: string | null; userId: string | null } }> {
  if (body.company) assertCompanyRef(body.company);
  if (body.user) assertUserRef(body.user);
  return { ok: true, data: body.event_type === "identify" ? await identify(deps, principal, body) : await track(deps, principal, body) };
}

async function identify(deps: Deps, principal: Principal, body: EventBody) {
  if (!body.company && !body.user && principal.kind !== "embed") {
    throw badRequest("Validation failed", { "body.company": "identify needs a company or a user" });
  }
  await assertEmbedCompany(deps, principal, body.company);
  const company = principal.kind === "embed" ? { ...body.company, id: principal.companyId! } : body.company;
  // Top-level traits describe the user when one is named, else the company (Segment's identify).
  const withTraits = <R extends { traits?: Record<string, unknown> }>(ref: R | undefined): R | undefined => (ref ? { ...ref, traits: { ...ref.traits, ...body.traits } } : ref);
  const user = body.user ?? (principal.kind === "embed" && principal.userId ? { id: principal.userId } : undefined);
  return user ? upsertIdentity(deps, principal, company, withTraits(user)) : upsertIdentity(deps, principal, withTraits(company), undefined);
}

async function track(deps: Deps, principal: Principal, body: EventBody) {
  if (!body.name) throw badRequest("Validation failed", { "body.name": "Required for track events" });
  const catalog = await deps.entitlements.catalog(principal);
  const feature = catalog.featureForEvent(body.name);
  if (feature && !body.company && principal.kind !== "embed") {
    throw badRequest("Validation failed", { "body.company": `'${body.name}' is a metered feature: name the company (id, wallet or email)` });
  }
  const { companyId, userId } = await resolveTrackIdentity(deps, principal, body.company, body.user);
  let enforcement: Enforcement = { kind: "record" };
  if (feature) {
    const company = await deps.entitlements.company(principal, companyId!);
    enforcement = enforcementOf(evaluate(catalog, feature, company, deps.clock.now()));
  }
  const result = await deps.entitlements.meter.submit({
    teamId: principal.teamId,
    environment: principal.environment,
    source: "events",
    name: body.name,
    companyId,
    userId,
    featureId: feature?.id ?? null,
    quantity: 1n,
    traits: body.traits ?? {},
    idempotencyKey: body.idempotencyKey ?? null,
    enforcement,
  });
  if (result.outcome !== "accepted") throw refusal(result.outcome);
  return { companyId: result.companyId, userId: result.userId };
}
