/**
 * Subscriptions: activation with the payer's consent, renewals through the mandate, plan changes, mandates,
 * cancellation and the tenant's settings. One plugin mounts the domain's routes: the embed and API routes,
 * the plan change (embed and dashboard) and the dashboard's subscription routes, in that order.
 */
import { Elysia } from "elysia";
import { dashboardSubscriptionRoutes, type DashboardSubscriptionDeps } from "./dashboard/routes";
import { planChangeRoutes } from "./plan-change/routes";
import { subscriptionRoutes } from "./routes";

/** What the domain's routes need; the service's wiring (src/app-deps.ts) provides it. */
export type SubscriptionsPluginDeps = Parameters<typeof subscriptionRoutes>[0] & Parameters<typeof planChangeRoutes>[0] & DashboardSubscriptionDeps;

export function subscriptionsPlugin(deps: SubscriptionsPluginDeps) {
  return new Elysia().use(subscriptionRoutes(deps)).use(planChangeRoutes(deps)).use(dashboardSubscriptionRoutes(deps));
}
