/**
 * `plan list | update | archive`, `plan price set | remove`, `coupon create | list | archive`, `feature list |
 * archive | restore`, `entitlement remove`: the dashboard's catalog operations for an operator, through the
 * same service functions as /api/v1/dashboard/..., audited as the operator.
 */
import { presentCoupon } from "../modules/catalog/coupons/present";
import { archiveCoupon, createCoupon, listCouponPage } from "../modules/catalog/coupons/edit";
import { getFeature, listFeaturePage, resolveFeatureId } from "../modules/catalog/features/read";
import { presentDashboardFeature, presentPlanEntitlement } from "../modules/catalog/present";
import { presentPlanRecord } from "../modules/catalog/plans/present";
import { removePlanPrice, setPlanPrice, updatePlanRecord } from "../modules/catalog/plans/edit";
import { listPlanPage } from "../modules/catalog/plans/repo";
import { removeEntitlement } from "../modules/catalog/entitlements/edit";
import { removeFeature, setFeatureArchived } from "../modules/catalog/features/edit";
import { OPERATOR } from "../modules/teams/roles";
import { ENVIRONMENT_OPTION, TEAM_OPTION, list, oneOf, tenant, wholeNumber } from "./args";
import { command, type Context } from "./command";

const ALL = { beforeSeq: null, fetch: 10_000 }; // the CLI lists without pages: every row, newest first
const deps = (ctx: Context) => ({ sql: ctx.sql, chains: ctx.config.chains, now: () => new Date(ctx.now), fieldPrefix: "" });
const PLAN = { plan: { value: "<plan id>", help: "plan_…", required: true } };
const FEATURE = { feature: { value: "<id or key>", help: "cflag_… or the featureKey", required: true } };
const ARCHIVED = { "include-archived": { value: "true|false", help: "Default false" } };
const PERIODS = ["monthly", "yearly"] as const;

export const pricingCommands = [
  command({
    name: "plan list",
    summary: "List plans and add-ons",
    options: { ...TEAM_OPTION, ...ARCHIVED, ...ENVIRONMENT_OPTION },
    parse: (a) => ({ tenant: tenant(a), archived: oneOf("include-archived", a["include-archived"], ["true", "false"]) === "true" }),
    run: async ({ sql }, { tenant, archived }) =>
      (await listPlanPage(sql, tenant, ALL, { includeArchived: archived, kind: null })).map(presentPlanRecord),
  }),
  command({
    name: "plan archive",
    summary: "Archive a plan (companies on it keep their entitlements)",
    options: { ...TEAM_OPTION, ...PLAN, ...ENVIRONMENT_OPTION },
    parse: (a) => ({ tenant: tenant(a), plan: a.plan! }),
    run: async (ctx, { tenant, plan }) =>
      presentPlanRecord(await updatePlanRecord(deps(ctx), tenant, OPERATOR, { id: plan, patch: { archived: true } })),
  }),
  command({
    name: "plan price set",
    summary: "Set or replace a plan's price for a billing period",
    options: {
      ...TEAM_OPTION,
      ...PLAN,
      period: { value: PERIODS.join("|"), help: "", required: true },
      amount: { value: "<decimal>", help: "e.g. 29.00 (at most 6 fractional digits)", required: true },
      currency: { value: "<symbol>", help: "A token the environment settles in; default USDC" },
      ...ENVIRONMENT_OPTION,
    },
    parse: (a) => ({ tenant: tenant(a), plan: a.plan!, period: a.period!, price: { amount: a.amount!, currency: a.currency ?? "USDC" } }),
    run: async (ctx, { tenant, plan, period, price }) =>
      presentPlanRecord(await setPlanPrice(deps(ctx), tenant, OPERATOR, { planId: plan, period, price })),
  }),
  command({
    name: "plan price remove",
    summary: "Remove a plan's price for a billing period",
    options: { ...TEAM_OPTION, ...PLAN, period: { value: PERIODS.join("|"), help: "", required: true }, ...ENVIRONMENT_OPTION },
    parse: (a) => ({ tenant: tenant(a), plan: a.plan!, period: a.period! }),
    run: async (ctx, { tenant, plan, period }) => presentPlanRecord(await removePlanPrice(deps(ctx), tenant, OPERATOR, { planId: plan, period })),
  }),
  command({
    name: "coupon create",
    summary: "Create a coupon (percent or amount off)",
    options: {
      ...TEAM_OPTION,
      code: { value: "<code>", help: "Unique in any case", required: true },
      name: { value: "<name>", help: "Default: the code" },
      "percent-off": { value: "<percent>", help: "0.01 to 100" },
      "amount-off": { value: "<decimal>", help: "With --currency" },
      currency: { value: "<symbol>", help: "" },
      duration: { value: "once|repeating|forever", help: "", required: true },
      "duration-periods": { value: "<N>", help: "repeating: how many billing periods" },
      "max-redemptions": { value: "<N>", help: "" },
      "expires-at": { value: "<ISO date>", help: "" },
      plans: { value: "<plan id,…>", help: "Plans it applies to (default any)" },
      ...ENVIRONMENT_OPTION,
    },
    parse: (a) => ({
      tenant: tenant(a),
      coupon: {
        code: a.code!,
        name: a.name,
        percentOff: a["percent-off"],
        amountOff: a["amount-off"],
        currency: a.currency,
        duration: oneOf("duration", a.duration, ["once", "repeating", "forever"] as const)!,
        durationPeriods: a["duration-periods"] === undefined ? undefined : Number(wholeNumber("duration-periods", a["duration-periods"], 1n)),
        maxRedemptions: a["max-redemptions"] === undefined ? undefined : Number(wholeNumber("max-redemptions", a["max-redemptions"], 1n)),
        expiresAt: a["expires-at"],
        planIds: list(a.plans),
      },
    }),
    run: async (ctx, { tenant, coupon }) => presentCoupon(await createCoupon(deps(ctx), tenant, OPERATOR, coupon)),
  }),
  command({
    name: "coupon list",
    summary: "List coupons",
    options: { ...TEAM_OPTION, ...ARCHIVED, ...ENVIRONMENT_OPTION },
    parse: (a) => ({ tenant: tenant(a), archived: oneOf("include-archived", a["include-archived"], ["true", "false"]) === "true" }),
    run: async ({ sql }, { tenant, archived }) => (await listCouponPage(sql, tenant, ALL, archived)).map(presentCoupon),
  }),
  command({
    name: "coupon archive",
    summary: "Archive a coupon (no further redemptions)",
    options: { ...TEAM_OPTION, id: { value: "<coupon id>", help: "coupon_…", required: true }, ...ENVIRONMENT_OPTION },
    parse: (a) => ({ tenant: tenant(a), id: a.id! }),
    run: async (ctx, { tenant, id }) => presentCoupon(await archiveCoupon(deps(ctx), tenant, OPERATOR, id)),
  }),
  command({
    name: "feature list",
    summary: "List features",
    options: { ...TEAM_OPTION, ...ARCHIVED, ...ENVIRONMENT_OPTION },
    parse: (a) => ({ tenant: tenant(a), archived: oneOf("include-archived", a["include-archived"], ["true", "false"]) === "true" }),
    run: async ({ sql }, { tenant, archived }) => (await listFeaturePage(sql, tenant, ALL, archived)).map(presentDashboardFeature),
  }),
  command({
    name: "feature archive",
    summary: "Archive a feature: it grants and meters nothing; its history stays",
    options: { ...TEAM_OPTION, ...FEATURE, ...ENVIRONMENT_OPTION },
    parse: (a) => ({ tenant: tenant(a), feature: a.feature! }),
    run: async (ctx, { tenant, feature }) =>
      presentDashboardFeature(
        await setFeatureArchived(
          ctx.sql,
          { tenant, actor: OPERATOR, now: new Date(ctx.now) },
          await resolveFeatureId(ctx.sql, tenant, feature),
          true,
        ),
      ),
  }),
  command({
    name: "feature restore",
    summary: "Restore an archived feature",
    options: { ...TEAM_OPTION, ...FEATURE, ...ENVIRONMENT_OPTION },
    parse: (a) => ({ tenant: tenant(a), feature: a.feature! }),
    run: async (ctx, { tenant, feature }) =>
      presentDashboardFeature(
        await setFeatureArchived(
          ctx.sql,
          { tenant, actor: OPERATOR, now: new Date(ctx.now) },
          await resolveFeatureId(ctx.sql, tenant, feature),
          false,
        ),
      ),
  }),
  command({
    name: "feature delete",
    summary: "Delete a feature no plan uses (archived instead when it has usage history)",
    options: { ...TEAM_OPTION, ...FEATURE, ...ENVIRONMENT_OPTION },
    parse: (a) => ({ tenant: tenant(a), feature: a.feature! }),
    run: async (ctx, { tenant, feature }) =>
      removeFeature(ctx.sql, { tenant, actor: OPERATOR, now: new Date(ctx.now) }, await resolveFeatureId(ctx.sql, tenant, feature)),
  }),
  command({
    name: "feature get",
    summary: "A feature by id or key",
    options: { ...TEAM_OPTION, ...FEATURE, ...ENVIRONMENT_OPTION },
    parse: (a) => ({ tenant: tenant(a), feature: a.feature! }),
    run: async ({ sql }, { tenant, feature }) => presentDashboardFeature(await getFeature(sql, tenant, feature)),
  }),
  command({
    name: "entitlement remove",
    summary: "Take a feature off a plan",
    options: { ...TEAM_OPTION, ...PLAN, ...FEATURE, ...ENVIRONMENT_OPTION },
    parse: (a) => ({ tenant: tenant(a), plan: a.plan!, feature: a.feature! }),
    run: async ({ sql }, { tenant, plan, feature }) =>
      presentPlanEntitlement(await removeEntitlement(sql, tenant, { planId: plan, featureId: await resolveFeatureId(sql, tenant, feature) })),
  }),
];
