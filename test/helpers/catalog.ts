/**
 * A catalog for entitlement tests, made through the real catalog services: one "Pro" plan with a
 * feature of every kind, an add-on plan, and companies on Pro.
 *   api-calls  event, quota 5 per month        (eventKey api_call)
 *   ai-tokens  event, 2 credits per use
 *   sso        boolean, enabled
 *   beta       boolean, switched off on Pro
 *   bulk       trait, company trait seats >= 10
 *   exports    event, not on Pro (only on the add-on plan: quota 3 per day)
 */
import { createPlan } from "../../src/modules/catalog/plans/edit";
import { createFeature } from "../../src/modules/catalog/features/edit";
import { setEntitlement } from "../../src/modules/catalog/entitlements/edit";
import { assignPlan } from "../../src/modules/customers/plan";
import { grantCredits } from "../../src/modules/entitlements/credits";
import type { TestApp } from "./app";
import { type Environment } from "../../src/lib/tenant";

export interface CatalogFixture {
  planId: string;
  addOnId: string;
  features: Record<"apiCalls" | "aiTokens" | "sso" | "beta" | "bulk" | "exports", string>;
}

export async function createCatalogFixture(
  t: TestApp,
  teamId: string,
  environment: Environment = "development",
  quota = 5n,
): Promise<CatalogFixture> {
  const sql = t.db.sql;
  const tenant = { teamId, environment };
  const plan = await createPlan(sql, tenant, { name: "Pro", tier: "pro" });
  const addOn = await createPlan(sql, tenant, { name: "Exports add-on", tier: "add-on", kind: "add_on" });
  const feature = async (name: string, featureKey: string, featureType: string, eventKey?: string) =>
    (await createFeature(sql, tenant, { name, featureKey, featureType, eventKey })).id;
  const features = {
    apiCalls: await feature("API calls", "api-calls", "event", "api_call"),
    aiTokens: await feature("AI tokens", "ai-tokens", "event"),
    sso: await feature("SSO", "sso", "boolean"),
    beta: await feature("Beta", "beta", "boolean"),
    bulk: await feature("Bulk actions", "bulk", "trait"),
    exports: await feature("Exports", "exports", "event"),
  };
  await setEntitlement(sql, tenant, { planId: plan.id, featureId: features.apiCalls, kind: "quota", limit: quota, period: "month" });
  await setEntitlement(sql, tenant, { planId: plan.id, featureId: features.aiTokens, kind: "credit", creditsPerUse: 2n });
  await setEntitlement(sql, tenant, { planId: plan.id, featureId: features.sso, kind: "boolean" });
  await setEntitlement(sql, tenant, { planId: plan.id, featureId: features.beta, kind: "boolean", enabled: false });
  await setEntitlement(sql, tenant, {
    planId: plan.id,
    featureId: features.bulk,
    kind: "trait",
    traitKey: "seats",
    traitOperator: "gte",
    traitValue: "10",
  });
  await setEntitlement(sql, tenant, { planId: addOn.id, featureId: features.exports, kind: "quota", limit: 3n, period: "day" });
  return { planId: plan.id, addOnId: addOn.id, features };
}

/** A company (by the integrator's id) created through POST /events identify, put on `planId`, with optional credits. */
export async function createCompanyOnPlan(
  t: TestApp,
  apiKey: string,
  teamId: string,
  externalId: string,
  planId: string,
  credits?: bigint,
  environment: Environment = "development",
) {
  const res = await t.call("POST", "/events", { token: apiKey, body: { event_type: "identify", company: { id: externalId, name: externalId } } });
  if (res.status !== 200) throw new Error(`identify failed: ${res.status} ${JSON.stringify(res.body)}`);
  const companyId = res.body.data.companyId as string;
  await assignPlan(t.db.sql, { teamId, environment }, { company: companyId, planId }, new Date(t.clock.now()));
  if (credits) await grantCredits(t.db.sql, { teamId, environment }, { company: companyId, amount: credits }, t.clock.now());
  return companyId;
}
