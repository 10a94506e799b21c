/**
 * Upserting companies and users from what callers know of them (events, access tokens): match on any
 * key, merge traits, fill in missing keys, create when unknown. Safe under concurrency: a racing
 * insert that loses on a unique key re-reads the winner instead of failing.
 */
import { apiError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import type { TransactionSql } from "../../db/client";
import type { CompanyRef, UserRef } from "./schemas";
import type { CompanyRow, UserRow } from "./rows";
import { publishCompanyChanged } from "../changes/publish";
import { emitEvent } from "../webhooks/emit";
import { presentCompany } from "./present";
import {
  findCompanyByKeys,
  findUserByKeys,
  insertCompany,
  insertUser,
  isCompanyMember,
  linkUserToCompany,
  mergeCompany,
  mergeUser,
  type CompanyFacts,
  type UserFacts,
} from "./repo";
import { type Tenant } from "../../lib/tenant";

// An `id` shaped like our own ids names our row; anything else is the integrator's id.
const externalOf = (id: string | undefined, ownPrefix: string) => (id && !id.startsWith(ownPrefix) ? id : null);

/** Our own ids (comp_…) name a company that must exist: only the integrator's ids and keys create one. */
export const isOwnCompanyId = (id: string | undefined): boolean => id?.startsWith("comp_") === true;
export const unknownOwnCompany = (id: string) => apiError("validation_failed", "Validation failed", { "body.company.id": `No company ${id}` });

export function assertCompanyRef(ref: CompanyRef, field = "body.company"): void {
  if (!ref.id && !ref.wallet && !ref.email)
    throw apiError("validation_failed", "Validation failed", { [field]: "At least one of id, wallet, email is required" });
}

export function assertUserRef(ref: UserRef, field = "body.user"): void {
  if (!ref.id && !ref.idp_user_id && !ref.wallet && !ref.email) {
    throw apiError("validation_failed", "Validation failed", { [field]: "At least one of id, idp_user_id, wallet, email is required" });
  }
}

export interface CompanyUpsert {
  company: CompanyRow;
  /** The company is new, or what a check reads of it changed (traits, the integrator's id). */
  changed: boolean;
}

/**
 * Upserts a company and, when it is new or a check could now answer differently (a trait changed,
 * the integrator's id was filled in), publishes a company change in the same transaction. Repeating
 * facts already stored, as track events do on every call, publishes nothing, so busy companies keep
 * their cached state on every instance. The caller drops this instance's copy when `changed`.
 */
export async function upsertCompany(tx: TransactionSql, tenant: Tenant, ref: CompanyRef): Promise<CompanyUpsert> {
  const facts: CompanyFacts = {
    externalId: externalOf(ref.id, "comp_"),
    name: ref.name ?? null,
    email: ref.email ?? null,
    wallet: ref.wallet ?? null,
    traits: ref.traits ?? {},
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    const found = await findCompanyByKeys(tx, tenant, { id: ref.id, wallet: facts.wallet, email: facts.email });
    let company: CompanyRow | null | undefined;
    if (found) company = (await mergeCompany(tx, tenant, found.id, facts))!;
    else if (isOwnCompanyId(ref.id)) throw unknownOwnCompany(ref.id!);
    else company = await insertCompany(tx, tenant, newId("comp"), facts);
    if (!company) continue; // lost an insert race on a unique key: the winner is found next time
    const changed = !found || found.external_id !== company.external_id || !Bun.deepEquals(found.traits, company.traits);
    if (changed) await publishCompanyChanged(tx, tenant, company.id);
    // Only a row this call inserted: an upsert that found the company created nothing.
    if (!found) await emitEvent({ tx, tenant }, "company.created", { lazy: () => presentCompany(company) });
    return { company, changed };
  }
  throw new Error("company upsert did not converge");
}

/**
 * Upserts a user and links it to `companyId`. With `onlyOfCompany` (a browser's embed token acts for
 * one company), an existing user who is not a member of that company is a 403, and nothing is written.
 */
export async function upsertUser(
  tx: TransactionSql,
  tenant: Tenant,
  ref: UserRef,
  membership: { companyId: string | null; onlyOfCompany?: boolean },
): Promise<UserRow> {
  const { companyId, onlyOfCompany = false } = membership;
  const facts: UserFacts = {
    externalId: externalOf(ref.id, "user_"),
    idpUserId: ref.idp_user_id ?? null,
    name: ref.name ?? null,
    email: ref.email ?? null,
    wallet: ref.wallet ?? null,
    traits: ref.traits ?? {},
  };
  let user: UserRow | undefined;
  for (let attempt = 0; attempt < 3 && !user; attempt++) {
    const found = await findUserByKeys(tx, tenant, { id: ref.id, idpUserId: facts.idpUserId, wallet: facts.wallet, email: facts.email });
    if (found && onlyOfCompany && !(companyId && (await isCompanyMember(tx, tenant, companyId, found.id)))) {
      throw apiError("wrong_company", "This token is scoped to another company");
    }
    if (found) user = await mergeUser(tx, tenant, found.id, facts);
    else if (ref.id?.startsWith("user_")) throw apiError("validation_failed", "Validation failed", { "body.user.id": `No user ${ref.id}` });
    else user = await insertUser(tx, tenant, newId("user"), facts);
  }
  if (!user) throw new Error("user upsert did not converge");
  if (companyId) await linkUserToCompany(tx, tenant, companyId, user.id);
  return user;
}
