/** Feature reads for the dashboard: by id or featureKey, and a page of them (archived ones on request). */
import { apiError } from "../../../lib/errors";
import type { Db } from "../../../db/queries";
import type { PageWindow } from "../../../http/pagination";
import type { Tenant } from "../../../lib/tenant";
import type { FeatureRow } from "../rows";
import { findFeatureIdByRef, findFeatureWithPlans, listFeatureRows } from "./repo";

/** The id of the feature named by its cflag_ id or its featureKey; 404 when neither names one of the tenant's. */
export async function resolveFeatureId(db: Db, tenant: Tenant, ref: string): Promise<string> {
  const row = await findFeatureIdByRef(db, tenant, ref);
  if (!row) throw apiError("not_found", `No feature ${ref}`);
  return row.id;
}

export async function getFeature(db: Db, tenant: Tenant, ref: string): Promise<FeatureRow> {
  const feature = await findFeatureWithPlans(db, tenant, await resolveFeatureId(db, tenant, ref));
  if (!feature) throw apiError("not_found", `No feature ${ref}`);
  return feature;
}

export const listFeaturePage = (db: Db, tenant: Tenant, page: PageWindow, includeArchived: boolean) =>
  listFeatureRows(db, tenant, { beforeSeq: page.beforeSeq, fetch: page.fetch, includeArchived });

/** A cflag_ id as given (the service answers 404 for an unknown one, after its other checks); a featureKey resolved to its id. */
export const featureIdOf = async (db: Db, tenant: Tenant, ref: string): Promise<string> =>
  ref.startsWith("cflag_") ? ref : resolveFeatureId(db, tenant, ref);
