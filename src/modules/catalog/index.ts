/** PUT /features/{id} and DELETE /features/{id}: editing the catalog's features (catalog.write). */
import { Elysia, t } from "elysia";
import { ErrorBody, ValidationErrorBody } from "../../http/error-schemas";
import { authPlugin } from "../../http/auth";
import { requestState } from "../../http/request-context";
import { type AuthDeps } from "../../http/auth";
import type { Sql } from "../../db/client";
import type { Tenant } from "../../lib/tenant";
import { actorOf } from "../audit/repo";
import { Feature, FeatureParams, FeatureUpdate, presentFeature } from "./model";
import { deleteFeature, updateFeature } from "./feature-writes";
import type { DashboardDeps } from "./dashboard-deps";
import { dashboardPlanRoutes } from "./dashboard-plans";
import { dashboardCouponRoutes } from "./dashboard-coupons";
import { dashboardFeatureRoutes } from "./dashboard-features";

const PUT_DESCRIPTION = `Partial update: omitted fields keep their value; an empty body changes nothing and returns the feature. \`featureKey\` never changes.

- \`eventKey\` uses the charset of feature keys (lowercase letters, digits, \`_ . : -\`); an empty string removes it.
  A track event name must name exactly one feature: an \`eventKey\` already used by another feature of the team and environment, as its \`eventKey\` or its \`featureKey\`, is a 409.
- \`featureType\` must fit the feature's entitlements on plans and company overrides: \`boolean\` entitlements fit any type, \`quota\` and \`credit\` need \`event\`, \`trait\` needs \`trait\`. Otherwise 409, naming the plans (and companies) to change first.

\`linkedPlans\` lists the plans holding an entitlement for the feature (any kind, enabled or not), oldest first. Each change is audited as \`feature.update\` with the values before and after.
404 \`{error}\` for an unknown feature or one of another team or environment.`;

const DELETE_DESCRIPTION = `Deletes a feature that no plan uses. A feature still used by plans is not deleted: 409 \`{error: "Feature is used by plans: <names>; remove it from them first"}\`, and nothing changes (as Stigg and Schematic do: removing an entitlement from a plan is a deliberate catalog change, not a side effect).
A feature with usage history (metered events, usage counters or refusal tallies referring to it) is archived instead, answered with the same \`{ok: true}\`: it grants and meters nothing from then on and leaves the dashboard's lists, while its history, its counters and its featureKey stay (restore it from the dashboard). Audited as \`feature.archive\`.
Any other feature is deleted with its company overrides. Audited as \`feature.delete\`.
404 \`{error}\` for an unknown feature or one of another team or environment.`;

/** What these routes need; the service's wiring (src/app-deps.ts) provides it (entitlements: this instance's caches). */
type RouteDeps = AuthDeps & { sql: Sql; entitlements: { catalogChanged(tenant: Tenant): void } };

export function featureRoutes(deps: RouteDeps) {
  return new Elysia()
    .use(authPlugin(deps))
    .put(
      "/features/:id",
      async ({ principal, params, body, request }) => {
        const feature = await updateFeature(deps.sql, principal, actorOf(principal, requestState(request).requestId), params.id, body);
        deps.entitlements.catalogChanged(principal); // this instance at once; others by NOTIFY
        return presentFeature(feature);
      },
      {
        access: true,
        params: FeatureParams,
        body: FeatureUpdate,
        response: { 200: Feature, 400: ValidationErrorBody, 404: ErrorBody, 409: ErrorBody },
        detail: { tags: ["Features"], summary: "Update a feature (partial)", description: PUT_DESCRIPTION },
      },
    )
    .delete(
      "/features/:id",
      async ({ principal, params, request }) => {
        const result = await deleteFeature(deps.sql, principal, actorOf(principal, requestState(request).requestId), params.id);
        deps.entitlements.catalogChanged(principal); // this instance at once; others by NOTIFY
        return result;
      },
      {
        access: true,
        params: FeatureParams,
        response: { 200: t.Object({ ok: t.Literal(true) }), 404: ErrorBody, 409: ErrorBody },
        detail: { tags: ["Features"], summary: "Delete a feature no plan uses", description: DELETE_DESCRIPTION },
      },
    );
}

/** The dashboard's catalog routes (src/modules/catalog/dashboard-*.ts). */
export function dashboardCatalogRoutes(deps: DashboardDeps) {
  return new Elysia().use(dashboardPlanRoutes(deps)).use(dashboardCouponRoutes(deps)).use(dashboardFeatureRoutes(deps));
}
