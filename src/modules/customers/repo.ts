/** Typed wrappers over the company and user queries. */
import { queries, run, runOne, type Db } from "../../db/queries";
import type { CompanyRow, UserRow } from "./rows";
import type { PageWindow } from "../../http/pagination";
import { type Tenant } from "../../lib/tenant";

const Q = queries([
  "company_find_by_keys",
  "company_id_find_by_keys",
  "company_id_find_by_ref",
  "company_find_by_ref",
  "company_insert",
  "company_merge",
  "company_list_page",
  "user_find_by_keys",
  "user_insert",
  "user_merge",
  "user_list_page",
  "company_membership_upsert",
  "company_membership_exists",
  "company_update",
  "company_set_plan",
]);

export interface CompanyFacts {
  externalId: string | null;
  name: string | null;
  email: string | null;
  wallet: string | null;
  traits: Record<string, unknown>;
}

export interface UserFacts extends CompanyFacts {
  idpUserId: string | null;
}

/** What names a company: our comp_ id or the integrator's (`id`), its wallet, its email (a key not given is passed as null). */
export interface CompanyKeys {
  id?: string | null;
  wallet?: string | null;
  email?: string | null;
}

export const findCompanyByKeys = (db: Db, t: Tenant, keys: CompanyKeys) =>
  runOne<CompanyRow>(db, Q.company_find_by_keys, [t.teamId, t.environment, keys.id ?? null, keys.wallet ?? null, keys.email ?? null]);

export const findCompanyIdByKeys = async (db: Db, t: Tenant, keys: CompanyKeys) =>
  (await runOne<{ id: string }>(db, Q.company_id_find_by_keys, [t.teamId, t.environment, keys.id ?? null, keys.wallet ?? null, keys.email ?? null]))
    ?.id ?? null;

/** A company named by our comp_ id or the integrator's id, without a lock (a read). */
export const findCompanyByRef = (db: Db, t: Tenant, ref: string) => runOne<CompanyRow>(db, Q.company_find_by_ref, [t.teamId, t.environment, ref]);

/**
 * A list's `companyId` filter: our comp_ id of the company named by our id or the integrator's, as
 * /check and PATCH /companies/{id} accept both. An unknown name stays as it is and matches nothing.
 */
export const companyIdFilter = async (db: Db, t: Tenant, ref: string | undefined): Promise<string | null> =>
  ref === undefined ? null : ((await runOne<{ id: string }>(db, Q.company_id_find_by_ref, [t.teamId, t.environment, ref]))?.id ?? ref);

export const insertCompany = (db: Db, t: Tenant, id: string, f: CompanyFacts) =>
  runOne<CompanyRow>(db, Q.company_insert, [id, t.teamId, t.environment, f.externalId, f.name, f.email, f.wallet, f.traits]);

export const mergeCompany = (db: Db, t: Tenant, id: string, f: CompanyFacts) =>
  runOne<CompanyRow>(db, Q.company_merge, [t.teamId, t.environment, id, f.externalId, f.name, f.email, f.wallet, f.traits]);

export const listCompanyPage = (db: Db, t: Tenant, page: PageWindow, pattern: string | null) =>
  run<CompanyRow>(db, Q.company_list_page, [t.teamId, t.environment, page.beforeSeq, page.fetch, pattern]);

/** What names a user: our user_ id or the integrator's (`id`), the identity provider's id, its wallet, its email (null when not given). */
export interface UserKeys {
  id?: string | null;
  idpUserId?: string | null;
  wallet?: string | null;
  email?: string | null;
}

export const findUserByKeys = (db: Db, t: Tenant, keys: UserKeys) =>
  runOne<UserRow>(db, Q.user_find_by_keys, [
    t.teamId,
    t.environment,
    keys.id ?? null,
    keys.idpUserId ?? null,
    keys.wallet ?? null,
    keys.email ?? null,
  ]);

export const insertUser = (db: Db, t: Tenant, id: string, f: UserFacts) =>
  runOne<UserRow>(db, Q.user_insert, [id, t.teamId, t.environment, f.externalId, f.idpUserId, f.name, f.email, f.wallet, f.traits]);

export const mergeUser = (db: Db, t: Tenant, id: string, f: UserFacts) =>
  runOne<UserRow>(db, Q.user_merge, [t.teamId, t.environment, id, f.externalId, f.idpUserId, f.name, f.email, f.wallet, f.traits]);

export const listUserPage = (db: Db, t: Tenant, page: PageWindow, f: { pattern: string | null; companyId: string | null }) =>
  run<UserRow>(db, Q.user_list_page, [t.teamId, t.environment, page.beforeSeq, page.fetch, f.pattern, f.companyId]);

export const isCompanyMember = async (db: Db, t: Tenant, companyId: string, userId: string) =>
  (await runOne(db, Q.company_membership_exists, [t.teamId, t.environment, companyId, userId])) !== undefined;

export const linkUserToCompany = (db: Db, t: Tenant, companyId: string, userId: string) =>
  run(db, Q.company_membership_upsert, [t.teamId, t.environment, companyId, userId]);

export interface CompanyUpdate {
  name: string | null;
  /** merged key by key; null values remove their key */
  traitsPatch: Record<string, unknown>;
  activePlanId: string | null;
  activeAddOnIds: string[];
  /** the billing anchor to set if the company has none yet; null leaves it */
  anchorIfUnset: Date | null;
}

export const updateCompanyRow = (db: Db, t: Tenant, id: string, u: CompanyUpdate) =>
  runOne<CompanyRow>(db, Q.company_update, [t.teamId, t.environment, id, u.name, u.traitsPatch, u.activePlanId, u.activeAddOnIds, u.anchorIfUnset]);

export const setCompanyPlan = (db: Db, t: Tenant, p: { companyId: string; planId: string; now: Date }) =>
  runOne<CompanyRow>(db, Q.company_set_plan, [t.teamId, t.environment, p.companyId, p.planId, p.now]);
