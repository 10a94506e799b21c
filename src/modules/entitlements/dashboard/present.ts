/** A company's overrides, from the entitlement engine's state of the company (what /check applies). */
import type { CatalogSnapshot } from "../catalog";
import type { CompanyState } from "../company-state";
import type { CompanyOverride } from "./schemas";

export function presentOverrides(catalog: CatalogSnapshot, company: CompanyState): CompanyOverride[] {
  const out: CompanyOverride[] = [];
  for (const [featureId, g] of company.overrides) {
    out.push({
      featureId,
      featureKey: catalog.byId.get(featureId)?.key ?? featureId,
      kind: g.kind,
      enabled: g.enabled,
      limit: g.limit?.toString() ?? null,
      period: g.period,
      creditsPerUse: g.creditsPerUse?.toString() ?? null,
      traitKey: g.traitKey,
      traitOperator: g.traitOperator,
      traitValue: g.traitValue,
    });
  }
  return out.sort((a, b) => a.featureKey.localeCompare(b.featureKey));
}
