/**
 * Subscription settings: the service functions the dashboard routes and the CLI share. A partial update (as
 * PUT /dashboard/invoice-settings): omitted fields keep their value. Every term is checked before anything is
 * written, one 400 naming each bad field; the change is audited in its transaction. Renewals read the
 * settings in force when they run: a new dunning schedule applies to the next failed attempt, a new tax
 * rate to the next invoice, a new fallback plan to the next cancellation.
 */
import type { Sql } from "../../../db/client";
import { checkBody } from "../../../http/schema-errors";
import { ApiError, apiError } from "../../../lib/errors";
import { parseTaxRateField } from "../../../lib/money";
import type { Tenant } from "../../../lib/tenant";
import { recordAudit, type Actor } from "../../audit/repo";
import { planChoiceProblems } from "../../catalog/plans/choice";
import type { SubscriptionSettings } from "../rows";
import { lockSettings, subscriptionSettings, upsertSettings } from "../repo";
import { presentSubscriptionSettings, SubscriptionSettingsPut, type SubscriptionSettingsView } from "./schemas";

export const getSubscriptionSettings = async (db: Sql, tenant: Tenant): Promise<SubscriptionSettingsView> =>
  presentSubscriptionSettings(await subscriptionSettings(db, tenant));

/** Retries are hours after the period's start (renewal/dunning.ts), so a schedule out of order would retry at once. */
function scheduleProblems(hours: readonly number[] | undefined, details: Record<string, string>) {
  hours?.forEach((h, i) => {
    if (i > 0 && h <= hours[i - 1]!)
      details[`body.dunningRetryHours[${i}]`] = `Expected more than ${hours[i - 1]}: retries are hours after the period's start, in order`;
  });
}

function taxRateOf(value: unknown, details: Record<string, string>): bigint | undefined {
  if (value === undefined) return undefined;
  try {
    return parseTaxRateField(value, "body.taxRate");
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    Object.assign(details, error.details);
    return undefined;
  }
}

export async function updateSubscriptionSettings(
  sql: Sql,
  { tenant, actor, patch, now }: { tenant: Tenant; actor: Actor; patch: SubscriptionSettingsPut; now: Date },
): Promise<SubscriptionSettingsView> {
  checkBody(SubscriptionSettingsPut, patch); // the route's schema again, for callers that skip the route (the CLI)
  const details: Record<string, string> = {};
  const taxRate = taxRateOf(patch.taxRate, details);
  scheduleProblems(patch.dunningRetryHours, details);
  return sql.begin(async (tx) => {
    // Locked (made with the defaults when missing) so concurrent partial updates merge; rolled back with a 400.
    const current = await lockSettings(tx, tenant, now);
    if (patch.fallbackPlanId) {
      // The fallback fills a company's plan slot: a plan of this tenant, of kind plan, not archived (unless it is already the fallback).
      const held = current.fallbackPlanId ? [current.fallbackPlanId] : [];
      const choice = await planChoiceProblems(tx, tenant, [{ field: "body.fallbackPlanId", ids: [patch.fallbackPlanId], kind: "plan", held }]);
      Object.assign(details, choice.details);
    }
    if (Object.keys(details).length) throw apiError("validation_failed", "Validation failed", details);
    const next: SubscriptionSettings = {
      taxRate: taxRate ?? current.taxRate,
      dunningRetryHours: patch.dunningRetryHours ?? current.dunningRetryHours,
      fallbackPlanId: patch.fallbackPlanId === undefined ? current.fallbackPlanId : patch.fallbackPlanId,
    };
    const saved = await upsertSettings(tx, tenant, next, now);
    const fields = Object.keys(patch)
      .filter((k) => patch[k as keyof SubscriptionSettingsPut] !== undefined)
      .sort();
    const before = presentSubscriptionSettings(current);
    const after = presentSubscriptionSettings(saved);
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "subscription_settings.update",
      resourceType: "subscription_settings",
      resourceId: tenant.environment,
      details: { fields, before, after },
    });
    return after;
  });
}
