/** Plan rows to API records. */
import { type Static } from "elysia";
import { formatMicro } from "../../../lib/money";
import type { Plan } from "./schemas";
import type { PlanFullRow } from "./rows";

export const presentPlanRecord = (r: PlanFullRow): Static<typeof Plan> => ({
  id: r.id,
  kind: r.kind,
  name: r.name,
  tier: r.tier,
  description: r.description,
  trialDays: r.trial_days,
  prices: r.prices.map((p) => ({ billingPeriod: p.billingPeriod, amount: formatMicro(BigInt(p.amount)), currency: p.currency })),
  onchainPlanIds: r.onchain_plan_ids,
  ...(r.entitlements ? { entitlements: r.entitlements.map((e) => ({ ...e, planId: r.id })) } : {}),
  archived: r.archived_at !== null,
  archivedAt: r.archived_at?.toISOString() ?? null,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});
