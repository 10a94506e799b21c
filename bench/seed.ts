/**
 * Bench data, written through the real service functions (as the operator CLI would): one team, a
 * secret key and a legacy key, a plan whose limits never refuse a bench request, and `companies`
 * companies on it, each with a credit grant far larger than any run can burn.
 */
import type { Sql } from "../src/db/client";
import { createKey } from "../src/modules/teams/keys";
import { createTeam } from "../src/modules/teams/team";
import { createPlan } from "../src/modules/catalog/plans/edit";
import { createFeature } from "../src/modules/catalog/features/edit";
import { setEntitlement } from "../src/modules/catalog/entitlements/edit";
import { assignPlan } from "../src/modules/customers/plan";
import { grantCredits } from "../src/modules/entitlements/credits";
import { upsertCompany } from "../src/modules/customers/identify";
import { type Environment } from "../src/lib/tenant";

export interface BenchSeed {
  teamId: string;
  secretKey: string;
  legacyKey: string;
  companies: string[]; // the integrator's ids, as requests name them
}

const QUOTA = 1_000_000_000_000n; // api-calls per month: never reached
const CREDITS = 1_000_000_000_000n; // ai-tokens at 1 credit per use: never exhausted

export async function seedBench(sql: Sql, companyCount: number, now = Date.now()): Promise<BenchSeed> {
  const team = await createTeam(sql, "Bench Team");
  const environment: Environment = "development";
  const tenant = { teamId: team.id, environment };
  const secret = await createKey(sql, { teamId: team.id, environment, type: "SECRET", name: "Bench secret key" }, now);
  const legacy = await createKey(sql, { teamId: team.id, environment, type: "LEGACY", name: "Bench legacy key" }, now);

  const plan = await createPlan(sql, tenant, { name: "Bench", tier: "pro" });
  const apiCalls = await createFeature(sql, tenant, { name: "API calls", featureKey: "api-calls", featureType: "event" });
  const aiTokens = await createFeature(sql, tenant, { name: "AI tokens", featureKey: "ai-tokens", featureType: "event" });
  const sso = await createFeature(sql, tenant, { name: "Single sign-on", featureKey: "sso", featureType: "boolean" });
  await setEntitlement(sql, tenant, { planId: plan.id, featureId: apiCalls.id, kind: "quota", limit: QUOTA, period: "month" });
  await setEntitlement(sql, tenant, { planId: plan.id, featureId: aiTokens.id, kind: "credit", creditsPerUse: 1n });
  await setEntitlement(sql, tenant, { planId: plan.id, featureId: sso.id, kind: "boolean", enabled: true });

  const companies = Array.from({ length: companyCount }, (_, i) => `bench-co-${i}`);
  // A few at a time: well inside the pool, and ten times faster than one by one.
  const PARALLEL = 8;
  for (let i = 0; i < companies.length; i += PARALLEL) {
    await Promise.all(
      companies.slice(i, i + PARALLEL).map(async (externalId) => {
        const { company } = await sql.begin((tx) => upsertCompany(tx, tenant, { id: externalId, name: externalId }));
        await assignPlan(sql, tenant, { company: company.id, planId: plan.id });
        await grantCredits(sql, tenant, { company: company.id, amount: CREDITS, reason: "bench" });
      }),
    );
  }
  return { teamId: team.id, secretKey: secret.key, legacyKey: legacy.key, companies };
}
