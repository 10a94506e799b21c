/**
 * Who an event is about. Known companies and users named only by id are resolved from memory (the
 * hot path writes nothing for them); anything new or carrying new facts is upserted in a short
 * transaction that also tells every instance's cache when what a check reads has changed.
 */
import type { Principal } from "../../auth/kinds";
import type { Sql } from "../../db/client";
import { apiError } from "../../lib/errors";
import { upsertCompany, upsertUser, type CompanyUpsert } from "../customers/identify";
import { findCompanyIdByKeys } from "../customers/repo";
import type { CompanyRef, UserRef } from "../customers/model";
import type { EntitlementRuntime } from "../entitlements/runtime";
import { companyRefFor } from "../entitlements/service";

export interface IdentityDeps {
  sql: Sql;
  entitlements: EntitlementRuntime;
}

const onlyId = (ref: { id?: string }) => Object.keys(ref).length === 1 && ref.id !== undefined;

// tenant|company|user ref -> user id, for users named only by id (bounded; oldest dropped first).
const knownUsers = new Map<string, string>();
const MAX_KNOWN_USERS = 100_000;

export async function upsertIdentity(deps: IdentityDeps, principal: Principal, company: CompanyRef | undefined, user: UserRef | undefined): Promise<{ companyId: string | null; userId: string | null }> {
  const { c, userId } = (await deps.sql.begin(async (tx) => {
    const c = company ? await upsertCompany(tx, principal, company) : null;
    const u = user ? await upsertUser(tx, principal, user, c?.company.id ?? null, principal.kind === "embed") : null;
    return { c, userId: u?.id ?? null };
  })) as { c: CompanyUpsert | null; userId: string | null };
  // Committed: remember the integrator's id, and drop this instance's copy when what a check reads changed
  // (other instances learn of it by NOTIFY).
  if (c) deps.entitlements.rememberCompany(principal, c.company.external_id, c.company.id);
  if (c?.changed) deps.entitlements.companyChanged(principal, c.company.id);
  return { companyId: c?.company.id ?? null, userId };
}

/** Our comp_ id of a company named by its id alone, from the entitlement caches (loading on a miss). */
async function cachedCompanyId(deps: IdentityDeps, principal: Principal, id: string): Promise<string | null> {
  return deps.entitlements.knownCompanyId(principal, id) ?? (await deps.entitlements.company(principal, id))?.id ?? null;
}

/** Our comp_ id for the event's company, creating the company when it is new. */
async function companyIdOf(deps: IdentityDeps, principal: Principal, ref: CompanyRef): Promise<string> {
  const known = onlyId(ref) ? await cachedCompanyId(deps, principal, ref.id!) : null;
  return known ?? (await upsertIdentity(deps, principal, ref, undefined)).companyId!;
}

async function userIdOf(deps: IdentityDeps, principal: Principal, ref: UserRef, companyId: string | null): Promise<string> {
  const key = `${principal.teamId}|${principal.environment}|${companyId}|${ref.id}`;
  if (onlyId(ref)) {
    const known = knownUsers.get(key);
    if (known) return known;
  }
  const id = await deps.sql.begin(async (tx) => (await upsertUser(tx, principal, ref, companyId, principal.kind === "embed")).id);
  if (onlyId(ref)) {
    knownUsers.set(key, id as string);
    if (knownUsers.size > MAX_KNOWN_USERS) knownUsers.delete(knownUsers.keys().next().value!);
  }
  return id as string;
}

/**
 * Our id of the company a track names, creating and changing nothing: a metered track is decided
 * before anything about who it is about is written. Null when the company does not exist (yet).
 */
export async function existingCompanyId(deps: IdentityDeps, principal: Principal, ref: CompanyRef | undefined): Promise<string | null> {
  if (principal.kind === "embed") {
    await assertEmbedCompany(deps, principal, ref);
    return principal.companyId!;
  }
  if (!ref) return null;
  const id = onlyId(ref)
    ? await cachedCompanyId(deps, principal, ref.id!)
    : await findCompanyIdByKeys(deps.sql, principal, ref.id ?? null, ref.wallet ?? null, ref.email ?? null);
  // Our own id names a company that must exist, as for the upsert (upsertCompany).
  if (id === null && ref.id?.startsWith("comp_")) throw apiError("validation_failed", "Validation failed", { "body.company.id": `No company ${ref.id}` });
  return id;
}

/**
 * Resolves the company and user of a track event. An embed token acts for its own company (and
 * user) only: it may omit them, and naming another company is a 403.
 */
export async function resolveTrackIdentity(deps: IdentityDeps, principal: Principal, company: CompanyRef | undefined, user: UserRef | undefined) {
  let companyId: string | null;
  if (principal.kind === "embed") {
    await assertEmbedCompany(deps, principal, company);
    companyId = principal.companyId!;
  } else {
    companyId = company ? await companyIdOf(deps, principal, company) : null;
  }
  let userId = user ? await userIdOf(deps, principal, user, companyId) : null;
  if (principal.kind === "embed" && userId === null) userId = principal.userId ?? null;
  return { companyId, userId };
}

/**
 * An embed token may only name its own company, by our id or the integrator's id; anything else
 * (another company, or one named only by wallet or email) is a 403, checked before anything is written.
 * The same rule as the entitlement endpoints' (companyRefFor).
 *
 * Nor may it change that company: an embed token lives in a browser, and a company's traits decide
 * its trait-based entitlements, its wallet and email which company a server's later events are
 * charged to. Those facts come from the integrator's server (identify with an api_ key, or the token's
 * creation); from a browser they are a 403, as for any credential of the wrong kind.
 */
export async function assertEmbedCompany(deps: IdentityDeps, principal: Principal, company: CompanyRef | undefined, companyTraits?: Record<string, unknown>): Promise<void> {
  if (principal.kind !== "embed") return;
  if (company && !company.id) throw apiError("wrong_company", "This token is scoped to another company");
  if (company?.id) await companyRefFor(deps, principal, company.id, "body.company");
  const describes = (traits: Record<string, unknown> | undefined) => traits !== undefined && Object.keys(traits).length > 0;
  const { id: _id, traits, ...facts } = company ?? {};
  // An empty traits object changes nothing, so it is no attempt to describe the company.
  if (Object.keys(facts).length > 0 || describes(traits) || describes(companyTraits)) {
    throw apiError("wrong_credential_kind", "An embed token cannot change its company's name, wallet, email or traits: send them from your server");
  }
}
