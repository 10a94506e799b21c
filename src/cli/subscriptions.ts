/**
 * `subscription list | show | cancel | resume | change-plan` and `subscription-settings show | set`: the dashboard's
 * subscription routes for an operator, over the same service functions (src/modules/subscriptions/dashboard/read.ts,
 * cancellation/manage.ts, settings/update.ts) and the same schemas, so a bad value is the same 400 naming the same field. Changes
 * are audited with actor `operator`. Nothing here calls a chain: an immediate cancel queues the on-chain revoke
 * for the job runner (a running service or `npm run worker`), as the route does.
 */
import { ChainPool } from "../chains/pool";
import { MAX_PAGE_SIZE } from "../http/pagination";
import { checkSchema } from "../http/schema-errors";
import type { Tenant } from "../lib/tenant";
import type { SubscriptionDeps } from "../modules/subscriptions/context";
import { cancelSubscription, OPERATOR_CANCEL_REASON, resumeSubscription } from "../modules/subscriptions/cancellation/manage";
import { readSubscriptionDetail, readSubscriptionPage } from "../modules/subscriptions/dashboard/read";
import { CancelBody } from "../modules/subscriptions/schemas";
import { getSubscriptionSettings, updateSubscriptionSettings } from "../modules/subscriptions/settings/update";
import { SUBSCRIPTION_STATUSES, SubscriptionListQuery } from "../modules/subscriptions/dashboard/schemas";
import { OPERATOR } from "../modules/teams/roles";
import { ENVIRONMENT_OPTION, TEAM_OPTION, list, oneOf, tenant, wholeNumber } from "./args";
import { command, type Context } from "./command";
import type { Static } from "elysia";
import { apiError } from "../lib/errors";
import { changePlan } from "../modules/subscriptions/plan-change/change";
import { previewPlanChange } from "../modules/subscriptions/plan-change/preview";
import { commandOf, PlanChangeBody } from "../modules/subscriptions/plan-change/schemas";
import { companyIdOr404 } from "../modules/subscriptions/plan-change/routes";
import { ListPage } from "./output";

const ID_OPTION = { id: { value: "<subscription id>", help: "sub_…", required: true } };

/** The subscription services with a chain pool that starts no worker unless a chain is asked (these commands never do). */
async function withSubscriptions<T>(ctx: Context, run: (deps: SubscriptionDeps) => Promise<T>): Promise<T> {
  // The operator keys reach the worker only (a plan change may pull through the mandate).
  const pool = new ChainPool({ size: 1, jobTimeoutMs: ctx.config.chainJobTimeoutMs, operatorKeys: ctx.config.operatorKeys });
  try {
    return await run({ sql: ctx.sql, chains: ctx.config.chains, pool, emailEnabled: ctx.config.smtpUrl !== undefined });
  } finally {
    await pool.close();
  }
}

const one = (a: Record<string, string | undefined>) => ({ tenant: tenant(a), id: a.id! });
const show = (ctx: Context, t: Tenant, id: string) => readSubscriptionDetail(ctx.sql, t, id);

export const subscriptionCommands = [
  command({
    name: "subscription list",
    summary: "One page of subscriptions, newest first, filtered and paged as GET /dashboard/subscriptions",
    options: {
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      status: { value: SUBSCRIPTION_STATUSES.join("|"), help: "" },
      company: { value: "<company id>", help: "Our comp_ id or yours" },
      limit: { value: `<1-${MAX_PAGE_SIZE}>`, help: "Default 50" },
      cursor: { value: "<cursor>", help: "nextCursor of the previous page (with the same --status and --company)" },
    },
    // The route's query schema: a bad value is the 400 the route answers, naming query.status, query.limit, …
    parse: (a) => ({
      tenant: tenant(a),
      query: checkSchema<SubscriptionListQuery>(
        SubscriptionListQuery,
        {
          status: a.status,
          companyId: a.company,
          limit: a.limit === undefined ? undefined : Number(wholeNumber("limit", a.limit)),
          cursor: a.cursor,
        },
        "query",
      ),
    }),
    // Under the dashboard list's name: a cursor of GET /dashboard/subscriptions pages on here, and back.
    run: async (ctx, i) =>
      new ListPage(
        await readSubscriptionPage(ctx.sql, i.tenant, { secret: ctx.config.tokenSigningSecret, list: "dashboard-subscriptions", query: i.query }),
      ),
  }),
  command({
    name: "subscription show",
    summary: "A subscription with its mandate and its recent chain operations",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, ...ID_OPTION },
    positional: "id",
    parse: one,
    run: (ctx, i) => show(ctx, i.tenant, i.id),
  }),
  command({
    name: "subscription cancel",
    summary: "Cancel a subscription at its period's end (default) or now (--at-period-end false)",
    options: {
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      ...ID_OPTION,
      "at-period-end": { value: "true|false", help: "true (default): the renewal job cancels it at the period's end; false: now" },
      reason: {
        value: "<text>",
        help: `1 to 200 characters, for the audit log (and cancelReason when canceled now; default "${OPERATOR_CANCEL_REASON}")`,
      },
    },
    positional: "id",
    parse: (a) => {
      const atPeriodEnd = oneOf("at-period-end", a["at-period-end"], ["true", "false"]);
      const body = checkSchema<{ atPeriodEnd?: boolean; reason?: string }>(
        CancelBody,
        { atPeriodEnd: atPeriodEnd === undefined ? undefined : atPeriodEnd === "true", reason: a.reason },
        "body",
      );
      return { ...one(a), how: { atPeriodEnd: body.atPeriodEnd ?? true, reason: body.reason ?? OPERATOR_CANCEL_REASON } };
    },
    run: async (ctx, i) => {
      await withSubscriptions(ctx, (deps) =>
        cancelSubscription({ deps, tenant: i.tenant, actor: OPERATOR, now: new Date(ctx.now) }, { subscriptionId: i.id }, i.how),
      );
      return show(ctx, i.tenant, i.id);
    },
  }),
  command({
    name: "subscription resume",
    summary: "Undo a cancellation at period end: the subscription renews as before",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, ...ID_OPTION },
    positional: "id",
    parse: one,
    run: async (ctx, i) => {
      await withSubscriptions(ctx, (deps) =>
        resumeSubscription({ deps, tenant: i.tenant, actor: OPERATOR, now: new Date(ctx.now) }, { subscriptionId: i.id }),
      );
      return show(ctx, i.tenant, i.id);
    },
  }),
  command({
    name: "subscription change-plan",
    summary: "Change a company's plan with exact proration, or --preview the invoice it would issue (POST /dashboard/companies/{id}/plan)",
    options: {
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      company: { value: "<company id>", help: "Our comp_ id or yours", required: true },
      plan: { value: "<plan id>", help: "Our plan id, or its on-chain id on the subscription's network", required: true },
      period: { value: "monthly|yearly", help: "Default: the subscription's" },
      coupon: { value: "<code>", help: "Redeemed with the change" },
      effective: { value: "now|period_end", help: "Default now (a downgrade credits the unused time); period_end schedules it" },
      "tx-hash": { value: "<hash>", help: "A transfer paying the proration invoice; without it the proration is pulled through the mandate" },
      preview: { value: "true|false", help: "true: compute and show the quote, change nothing" },
      quote: { value: "<quo_ id>", help: "Charge exactly a preview's quote (its plan, period, coupon and instant), once, within 15 minutes" },
    },
    parse: (a) => {
      const body = checkSchema<Static<typeof PlanChangeBody>>(
        PlanChangeBody,
        { planId: a.plan, billingPeriod: a.period, couponCode: a.coupon, effective: a.effective, txHash: a["tx-hash"], quoteId: a.quote },
        "body",
      );
      const preview = oneOf("preview", a.preview, ["true", "false"]) === "true";
      if (preview && body.txHash) throw apiError("validation_failed", "Validation failed", { "tx-hash": "A preview pays nothing" });
      if (preview && body.quoteId) throw apiError("validation_failed", "Validation failed", { quote: "A preview makes its own quote" });
      return { tenant: tenant(a), company: a.company!, command: commandOf(body), preview };
    },
    run: async (ctx, i) => {
      const companyId = await companyIdOr404(ctx.sql, i.tenant, i.company);
      const now = new Date(ctx.now);
      if (i.preview) return previewPlanChange(ctx.sql, i.tenant, { companyId, request: i.command, now });
      return withSubscriptions(ctx, (deps) => changePlan({ deps, tenant: i.tenant, actor: OPERATOR, now }, companyId, i.command));
    },
  }),
  command({
    name: "subscription-settings show",
    summary: "The subscription settings of a team's environment (tax rate, dunning schedule, fallback plan)",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION },
    parse: (a) => tenant(a),
    run: (ctx, t) => getSubscriptionSettings(ctx.sql, t),
  }),
  command({
    name: "subscription-settings set",
    summary: "Change subscription settings; options left out keep their value",
    options: {
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      "tax-rate": { value: "<percent>", help: 'Tax on subscription invoices, 0 to 100 with at most 4 fractional digits ("7.25")' },
      "dunning-retry-hours": {
        value: "<h,h,…>",
        help: "Retries after a failed renewal, in hours after the period's start, in order (at most 10, each 1 to 8784); '' for none",
      },
      "fallback-plan": { value: "<plan id>", help: "The plan a canceled company is put on; '' for none" },
    },
    parse: (a) => {
      const hours = a["dunning-retry-hours"];
      const plan = a["fallback-plan"];
      return {
        tenant: tenant(a),
        patch: {
          taxRate: a["tax-rate"],
          dunningRetryHours: hours === undefined ? undefined : (list(hours) ?? []).map((h) => Number(wholeNumber("dunning-retry-hours", h, 1n))),
          fallbackPlanId: plan === undefined ? undefined : plan === "" ? null : plan,
        },
      };
    },
    run: (ctx, i) => updateSubscriptionSettings(ctx.sql, { tenant: i.tenant, actor: OPERATOR, patch: i.patch, now: new Date(ctx.now) }),
  }),
];
