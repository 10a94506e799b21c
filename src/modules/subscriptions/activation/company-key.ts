/**
 * How a payer's consent names the company it pays for: the integrator's own id for it (the company's external id,
 * `company.id` in the activation, e.g. "acme"), so a consent can be signed before the company exists here; a
 * company that has no external id is named by our `comp_` id. One key per company of a team, and the payee names
 * the team: a consent pays for exactly one company.
 */
import type { Db } from "../../../db/queries";
import { apiError } from "../../../lib/errors";
import type { Tenant } from "../../../lib/tenant";
import type { CompanyRef } from "../../customers/schemas";
import { isOwnCompanyId, unknownOwnCompany } from "../../customers/identify";
import { findCompanyByKeys } from "../../customers/repo";

export const companyKeyOf = (company: { id: string; external_id: string | null }): string => company.external_id ?? company.id;

/** The key of the company `ref` names (found as the activation will find it), or of the one it will create. */
export async function consentCompanyKey(db: Db, tenant: Tenant, ref: CompanyRef): Promise<string> {
  const found = await findCompanyByKeys(db, tenant, ref);
  if (found) return companyKeyOf(found);
  if (isOwnCompanyId(ref.id)) throw unknownOwnCompany(ref.id!);
  if (ref.id === undefined)
    throw apiError("validation_failed", "Validation failed", {
      "body.company.id": "Required for a new company: the payer's consent names the company it pays for by this id",
    });
  return ref.id;
}
