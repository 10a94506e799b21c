/**
 * The team's subscription settings as the dashboard routes and the CLI show and take them (per environment):
 * the tax on subscription invoices, the dunning schedule and the plan a canceled company falls back to.
 * `taxRate` is written as invoice lines write it: a percentage with at most 4 fractional digits, answered
 * with exactly 4 ("7.2500").
 */
import { t, type Static } from "elysia";
import { formatTaxRate } from "../../../lib/money";
import type { SubscriptionSettings as SettingsRecord } from "../rows";

/** The database's bounds (migration 00024): at most 10 retries, each within a leap year's hours. */
export const MAX_DUNNING_RETRIES = 10;
export const MAX_DUNNING_HOURS = 8784;

const EXAMPLE = { taxRate: "7.2500", dunningRetryHours: [24, 72, 168], fallbackPlanId: "plan_free" };

export const SubscriptionSettings = t.Object(
  {
    taxRate: t.String({
      pattern: "^\\d+\\.\\d{4}$",
      description: 'Tax on subscription invoices, a percentage with four fractional digits ("7.2500" is 7.25%)',
    }),
    dunningRetryHours: t.Array(t.Integer(), {
      description:
        "After a failed renewal, the hours after the period's start at which it is tried again, in order (a late attempt pushes the next one back by the gap between them, never closer); when the last retry fails the subscription is CANCELED",
    }),
    fallbackPlanId: t.Union([t.String(), t.Null()], { description: "The plan a company is put on when its subscription is canceled; null: none" }),
  },
  { $id: "SubscriptionSettings", examples: [EXAMPLE] },
);
export type SubscriptionSettingsView = Static<typeof SubscriptionSettings>;

export const SubscriptionSettingsPut = t.Object(
  {
    taxRate: t.Optional(
      t.Union([t.String({ maxLength: 64 }), t.Number()], {
        description: 'A percentage from 0 to 100 with at most 4 fractional digits ("7.25"), as a string or a JSON number',
        "x-expected": 'Expected a percentage from 0 to 100 with at most 4 fractional digits ("7.25")',
      }),
    ),
    dunningRetryHours: t.Optional(
      t.Array(t.Integer({ minimum: 1, maximum: MAX_DUNNING_HOURS }), {
        maxItems: MAX_DUNNING_RETRIES,
        description: `At most ${MAX_DUNNING_RETRIES} whole hours from 1 to ${MAX_DUNNING_HOURS}, each later than the one before; [] cancels at the first failure`,
      }),
    ),
    fallbackPlanId: t.Optional(
      t.Union([t.String({ minLength: 1, maxLength: 200 }), t.Null()], {
        description: "A plan (kind `plan`, not archived) of this team and environment; null: none",
        "x-expected": "Expected a plan id or null",
      }),
    ),
  },
  { $id: "SubscriptionSettingsPut", examples: [{ taxRate: "7.25", dunningRetryHours: [24, 72, 168], fallbackPlanId: null }] },
);
export type SubscriptionSettingsPut = Static<typeof SubscriptionSettingsPut>;

export const presentSubscriptionSettings = (s: SettingsRecord): SubscriptionSettingsView => ({
  taxRate: formatTaxRate(s.taxRate),
  dunningRetryHours: [...s.dunningRetryHours],
  fallbackPlanId: s.fallbackPlanId,
});
