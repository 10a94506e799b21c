/**
 * The dashboard's subscription routes (dashboard sessions; billing:read to read, billing:write to change), in
 * the dashboard's `{data}` envelope: list and read subscriptions, cancel (at period end or now) and resume, and
 * the environment's subscription settings. Writes go through the service functions the embed route and the CLI
 * use (cancellation/manage.ts, settings/update.ts), audited with the signed-in operator as actor (CSRF is checked centrally).
 */
import { Elysia } from "elysia";
import type { Principal } from "../../../auth/kinds";
import type { Sql } from "../../../db/client";
import { authPlugin, type AuthDeps } from "../../../http/auth";
import { data } from "../../../http/envelope";
import { CodedErrorBody, ErrorBody, ValidationErrorBody } from "../../../http/error-schemas";
import { Page } from "../../../http/pagination";
import { requestState } from "../../../http/request-context";
import type { Clock } from "../../../lib/clock";
import { actorOf } from "../../audit/repo";
import type { SubscriptionDeps } from "../context";
import { DASHBOARD_SUBSCRIPTION_DOCS as DOCS } from "./docs";
import { cancelSubscription, OPERATOR_CANCEL_REASON, resumeSubscription } from "../cancellation/manage";
import { readSubscriptionDetail, readSubscriptionPage } from "./read";
import { CancelBody, SubscriptionParams } from "../schemas";
import { getSubscriptionSettings, updateSubscriptionSettings } from "../settings/update";
import { SubscriptionSettings, SubscriptionSettingsPut } from "../settings/schemas";
import { Subscription, SubscriptionDetail, SubscriptionListQuery } from "./schemas";

export type DashboardSubscriptionDeps = AuthDeps & {
  sql: Sql;
  clock: Clock;
  config: { tokenSigningSecret: string };
  subscriptions: SubscriptionDeps;
};

const TAGS = ["Dashboard: subscriptions"];

export function dashboardSubscriptionRoutes(deps: DashboardSubscriptionDeps) {
  const secret = deps.config.tokenSigningSecret;
  const now = () => new Date(deps.clock.now());
  const actor = (principal: Principal, request: Request) => actorOf(principal, requestState(request).requestId);
  const detail = async (principal: Principal, id: string) => ({ data: await readSubscriptionDetail(deps.sql, principal, id) });
  const one = { params: SubscriptionParams };
  return new Elysia()
    .use(authPlugin(deps))
    .get(
      "/dashboard/subscriptions",
      ({ principal, query }) => readSubscriptionPage(deps.sql, principal, { secret, list: "dashboard-subscriptions", query }),
      {
        access: true,
        query: SubscriptionListQuery,
        response: Page(Subscription),
        detail: { tags: TAGS, summary: "List subscriptions, newest first", description: DOCS.list },
      },
    )
    .get("/dashboard/subscriptions/:id", ({ principal, params }) => detail(principal, params.id), {
      ...one,
      access: true,
      response: { 200: data(SubscriptionDetail), 404: ErrorBody },
      detail: { tags: TAGS, summary: "A subscription with its mandate and recent chain operations", description: DOCS.get },
    })
    .post(
      "/dashboard/subscriptions/:id/cancel",
      async ({ principal, params, body, request }) => {
        const how = { atPeriodEnd: body?.atPeriodEnd ?? true, reason: body?.reason ?? OPERATOR_CANCEL_REASON };
        await cancelSubscription(
          { deps: deps.subscriptions, tenant: principal, actor: actor(principal, request), now: now() },
          { subscriptionId: params.id },
          how,
        );
        return detail(principal, params.id);
      },
      {
        ...one,
        access: true,
        body: CancelBody,
        response: { 200: data(SubscriptionDetail), 400: ValidationErrorBody, 404: ErrorBody, 409: CodedErrorBody },
        detail: { tags: TAGS, summary: "Cancel a subscription, at period end (default) or now", description: DOCS.cancel },
      },
    )
    .post(
      "/dashboard/subscriptions/:id/resume",
      async ({ principal, params, request }) => {
        await resumeSubscription(
          { deps: deps.subscriptions, tenant: principal, actor: actor(principal, request), now: now() },
          { subscriptionId: params.id },
        );
        return detail(principal, params.id);
      },
      {
        ...one,
        access: true,
        response: { 200: data(SubscriptionDetail), 404: ErrorBody, 409: CodedErrorBody },
        detail: { tags: TAGS, summary: "Undo a cancellation at period end", description: DOCS.resume },
      },
    )
    .get("/dashboard/subscription-settings", async ({ principal }) => ({ data: await getSubscriptionSettings(deps.sql, principal) }), {
      access: true,
      response: data(SubscriptionSettings),
      detail: { tags: TAGS, summary: "The environment's subscription settings", description: DOCS.settings },
    })
    .put(
      "/dashboard/subscription-settings",
      async ({ principal, body, request }) => ({
        data: await updateSubscriptionSettings(deps.sql, { tenant: principal, actor: actor(principal, request), patch: body, now: now() }),
      }),
      {
        access: true,
        body: SubscriptionSettingsPut,
        response: { 200: data(SubscriptionSettings), 400: ValidationErrorBody },
        detail: { tags: TAGS, summary: "Change the subscription settings", description: DOCS.put },
      },
    );
}
