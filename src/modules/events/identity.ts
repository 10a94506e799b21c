/**
 * Who an event is about. Known companies and users named only by id are resolved from memory (the
 * hot path writes nothing for them); anything new or carrying new facts is upserted. A track's writes
 * run inside the meter's batch transaction (see IdentityWrite in meter.ts), so an event and who it is
 * about commit together or not at all; an identify's run in a short transaction of their own.
 */
import type { Principal } from "../../auth/kinds";
import type { Sql, TransactionSql } from "../../db/client";
import { apiError } from "../../lib/errors";
import { isOwnCompanyId, unknownOwnCompany, upsertCompany, upsertUser, type CompanyUpsert } from "../customers/identify";
import { findCompanyIdByKeys } from "../customers/repo";
import type { CompanyRef, UserRef } from "../customers/schemas";
import type { EntitlementRuntime } from "../entitlements/runtime";
import type { WrittenIdentity } from "../entitlements/usage";
import { companyRefFor } from "../entitlements/service";

export interface IdentityDeps {
  sql: Sql;
  entitlements: EntitlementRuntime;
}

const onlyId = (ref: { id?: string }) => Object.keys(ref).length === 1 && ref.id !== undefined;

// tenant|company|user ref -> user id, for users named only by id (bounded; oldest dropped first).
const knownUsers = new Map<string, string>();
const MAX_KNOWN_USERS = 100_000;
const knownUserKey = (principal: Principal, companyId: string | null, ref: UserRef) =>
  `${principal.teamId}|${principal.environment}|${companyId}|${ref.id}`;

/** What memory knows of who a track is about, and the writes still needed (null: none). */
export interface TrackIdentity {
  companyId: string | null;
  userId: string | null;
  write: ((tx: TransactionSql) => Promise<WrittenIdentity>) | null;
}

/**
 * Upserts `company` and `user` (each unless null) in `tx`; `known` holds the ids of those not upserted.
 * The caches learn of it only once the caller's transaction has committed.
 */
function writeIdentity(
  deps: IdentityDeps,
  principal: Principal,
  company: CompanyRef | null,
  user: UserRef | null,
  known: { companyId: string | null; userId: string | null },
) {
  return async (tx: TransactionSql): Promise<WrittenIdentity> => {
    const c: CompanyUpsert | null = company ? await upsertCompany(tx, principal, company) : null;
    const companyId = c?.company.id ?? known.companyId;
    const userId = user ? (await upsertUser(tx, principal, user, { companyId, onlyOfCompany: principal.kind === "embed" })).id : known.userId;
    return {
      companyId,
      userId,
      committed() {
        // Remember the integrator's id, and drop this instance's copy when what a check reads changed
        // (other instances learn of it by NOTIFY).
        if (c) deps.entitlements.rememberCompany(principal, c.company.external_id, c.company.id);
        if (c?.changed) deps.entitlements.companyChanged(principal, c.company.id);
        if (user && userId && onlyId(user)) {
          knownUsers.set(knownUserKey(principal, companyId, user), userId);
          if (knownUsers.size > MAX_KNOWN_USERS) knownUsers.delete(knownUsers.keys().next().value!);
        }
      },
    };
  };
}

/** identify: upserts the company and the user in one transaction. */
export async function upsertIdentity(
  deps: IdentityDeps,
  principal: Principal,
  company: CompanyRef | undefined,
  user: UserRef | undefined,
): Promise<{ companyId: string | null; userId: string | null }> {
  const written = (await deps.sql.begin((tx) =>
    writeIdentity(deps, principal, company ?? null, user ?? null, { companyId: null, userId: null })(tx),
  )) as WrittenIdentity;
  written.committed();
  return { companyId: written.companyId, userId: written.userId };
}

/** Our comp_ id of a company named by its id alone, from the entitlement caches (loading on a miss). */
async function cachedCompanyId(deps: IdentityDeps, principal: Principal, id: string): Promise<string | null> {
  return deps.entitlements.knownCompanyId(principal, id) ?? (await deps.entitlements.company(principal, id))?.id ?? null;
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
  const id = onlyId(ref) ? await cachedCompanyId(deps, principal, ref.id!) : await findCompanyIdByKeys(deps.sql, principal, ref);
  // Our own id names a company that must exist, as for the upsert (upsertCompany).
  if (id === null && isOwnCompanyId(ref.id)) throw unknownOwnCompany(ref.id!);
  return id;
}

/**
 * Who a track event is about (`about`: its company and user, as the event names them): the ids memory
 * knows, and the writes that establish the rest (a new company or user, new facts, a membership), for the
 * meter to run inside the event's transaction. Reads only. `existingId` is the company's id when the
 * caller has already found it (a metered track).
 * An embed token acts for its own company (and user) only: it may omit them, and naming another company is a 403.
 */
export async function planTrackIdentity(
  deps: IdentityDeps,
  principal: Principal,
  about: { company?: CompanyRef; user?: UserRef },
  existingId?: string | null,
): Promise<TrackIdentity> {
  const { company, user } = about;
  let companyId: string | null = null;
  let companyToWrite: CompanyRef | null = null;
  if (principal.kind === "embed") {
    await assertEmbedCompany(deps, principal, company);
    companyId = principal.companyId!;
  } else if (company) {
    companyId = existingId !== undefined ? existingId : onlyId(company) ? await cachedCompanyId(deps, principal, company.id!) : null;
    // Our own id names a company that must exist (upsertCompany's rule, checked here before anything is queued).
    if (companyId === null && onlyId(company) && isOwnCompanyId(company.id)) throw unknownOwnCompany(company.id!);
    if (companyId === null || !onlyId(company)) companyToWrite = company;
  }
  // A user is remembered under its company's id, so only once that id is known.
  const knownUser =
    user && onlyId(user) && (companyId !== null || !company) ? (knownUsers.get(knownUserKey(principal, companyId, user)) ?? null) : null;
  const userToWrite = user && !knownUser ? user : null;
  const userId = knownUser ?? (principal.kind === "embed" && !user ? (principal.userId ?? null) : null);
  const write = companyToWrite || userToWrite ? writeIdentity(deps, principal, companyToWrite, userToWrite, { companyId, userId }) : null;
  return { companyId, userId, write };
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
export async function assertEmbedCompany(
  deps: IdentityDeps,
  principal: Principal,
  company: CompanyRef | undefined,
  companyTraits?: Record<string, unknown>,
): Promise<void> {
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
