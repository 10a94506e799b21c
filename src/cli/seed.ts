/**
 * `cli seed`: a demo team with both environments, one key of each kind, a dashboard session, a small
 * catalog (two plans, four features, their entitlements), and a demo company on the paid plan with
 * credits, so the first curl call works at once.
 */
import type { Sql } from "../db/client";
import { createDashboardSession } from "../modules/teams/automation-session";
import { createKey } from "../modules/teams/keys";
import { createTeam } from "../modules/teams/team";
import { createPlan } from "../modules/catalog/plans/edit";
import { createFeature } from "../modules/catalog/features/edit";
import { setEntitlement } from "../modules/catalog/entitlements/edit";
import { assignPlan } from "../modules/customers/plan";
import { grantCredits } from "../modules/entitlements/credits";
import { upsertCompany } from "../modules/customers/identify";
import { presentCompany } from "../modules/customers/present";
import { presentFeature, presentPlan } from "../modules/catalog/present";
import { findFeatureWithPlans } from "../modules/catalog/features/repo";
import { type Environment } from "../lib/tenant";

export async function seed(sql: Sql, now: number, baseUrl: string) {
  const team = await createTeam(sql, "Demo Team");
  const environment: Environment = "development";
  const tenant = { teamId: team.id, environment };

  const keys = {
    secret: await createKey(sql, { teamId: team.id, environment, type: "SECRET", name: "Demo secret key" }, now),
    restricted: await createKey(
      sql,
      {
        teamId: team.id,
        environment,
        type: "RESTRICTED",
        name: "Demo restricted key",
        permissions: ["entitlements.read", "usage.consume", "tokens.create"],
      },
      now,
    ),
    publishable: await createKey(sql, { teamId: team.id, environment, type: "PUBLISHABLE", name: "Demo publishable key" }, now),
    legacy: await createKey(sql, { teamId: team.id, environment, type: "LEGACY", name: "Demo legacy key" }, now),
    productionSecret: await createKey(sql, { teamId: team.id, environment: "production", type: "SECRET", name: "Demo live secret key" }, now),
  };
  const dashboard = await createDashboardSession(sql, { teamId: team.id, environment, userEmail: "owner@demo.test", roles: ["admin"] }, now);

  const free = await createPlan(sql, tenant, { name: "Free", tier: "free" });
  const pro = await createPlan(sql, tenant, { name: "Pro", tier: "pro" });
  const apiCalls = await createFeature(sql, tenant, {
    name: "API calls",
    featureKey: "api-calls",
    featureType: "event",
    eventKey: "api.call",
    description: "Metered API requests",
  });
  const sso = await createFeature(sql, tenant, { name: "Single sign-on", featureKey: "sso", featureType: "boolean" });
  const aiTokens = await createFeature(sql, tenant, {
    name: "AI generations",
    featureKey: "ai-generation",
    featureType: "event",
    description: "Burns credits per use",
  });
  const seats = await createFeature(sql, tenant, {
    name: "Seats",
    featureKey: "seats",
    featureType: "trait",
    description: "Allowed while seat count is within the plan",
  });

  await setEntitlement(sql, tenant, { planId: free.id, featureId: apiCalls.id, kind: "quota", limit: 100n, period: "month" });
  await setEntitlement(sql, tenant, { planId: free.id, featureId: sso.id, kind: "boolean", enabled: false });
  await setEntitlement(sql, tenant, { planId: pro.id, featureId: apiCalls.id, kind: "quota", limit: 10_000n, period: "month" });
  await setEntitlement(sql, tenant, { planId: pro.id, featureId: sso.id, kind: "boolean", enabled: true });
  await setEntitlement(sql, tenant, { planId: pro.id, featureId: aiTokens.id, kind: "credit", creditsPerUse: 1n });
  await setEntitlement(sql, tenant, {
    planId: pro.id,
    featureId: seats.id,
    kind: "trait",
    traitKey: "seats",
    traitOperator: "lte",
    traitValue: "25",
  });

  const { company } = await sql.begin((tx) =>
    upsertCompany(tx, tenant, { id: "acme", name: "Acme Inc.", email: "billing@acme.test", traits: { seats: 10 } }),
  );
  const onPro = await assignPlan(sql, tenant, { company: company.id, planId: pro.id });
  const credits = await grantCredits(sql, tenant, { company: company.id, amount: 500n, reason: "demo" }, now);

  return {
    team,
    keys,
    dashboardSession: dashboard,
    plans: { free: presentPlan(free), pro: presentPlan(pro) },
    features: Object.fromEntries(
      await Promise.all(
        Object.entries({ apiCalls, sso, aiTokens, seats }).map(async ([name, f]) => [
          name,
          presentFeature((await findFeatureWithPlans(sql, tenant, f.id))!),
        ]),
      ),
    ),
    company: { ...presentCompany(onPro), creditBalance: credits.remaining.toString() },
    tryIt: `curl -s -X POST ${baseUrl}/api-keys/tokens -H 'Authorization: Bearer ${keys.secret.key}' -H 'content-type: application/json' -d '{"company":{"id":"acme"}}'`,
  };
}
