/** Dashboard routes for features, addressed by cflag_ id or featureKey (catalog:read / catalog:write). */
import { Elysia, t } from "elysia";
import { ErrorBody, ValidationErrorBody } from "../../http/error-schemas";
import { authPlugin } from "../../http/auth";
import { requestState } from "../../http/request-context";
import { Page, PageQuery, pageRequest, pageResponse } from "../../http/pagination";
import { NonBlankText } from "../../http/non-blank-text";
import { actorOf } from "../audit/repo";
import { IncludeArchived, Removed, type DashboardDeps } from "./dashboard-deps";
import { data } from "../../http/envelope";
import { DashboardFeature, FeatureUpdate, presentDashboardFeature } from "./model";
import { getFeature, listFeaturePage, resolveFeatureId } from "./features";
import { createFeature, removeFeature, setFeatureArchived, updateFeature } from "./feature-writes";

const FeatureCreate = t.Object(
  {
    name: NonBlankText(),
    featureKey: t.String({ pattern: "^[a-z0-9][a-z0-9_.:-]{0,99}$", description: "Stable: a track event with this name meters the feature" }),
    featureType: t.Union([t.Literal("boolean"), t.Literal("event"), t.Literal("trait")]),
    eventKey: t.Optional(t.String({ pattern: "^$|^[a-z0-9][a-z0-9_.:-]{0,99}$" })),
    icon: t.Optional(t.String({ maxLength: 200 })),
    description: t.Optional(t.String({ maxLength: 2000 })),
  },
  { $id: "FeatureCreate", examples: [{ name: "API calls", featureKey: "api-calls", featureType: "event", eventKey: "api.call" }] },
);

const FeaturePatch = t.Object(
  { ...FeatureUpdate.properties, archived: t.Optional(t.Boolean({ description: "true archives the feature, false restores it" })) },
  { $id: "FeaturePatch" },
);

const ARCHIVE = `An archived feature is hidden from lists (unless includeArchived=true), grants nothing at GET /check and GET /entitlements and meters nothing (a track event of its name is stored unmetered), and keeps its history, its plan entitlements (inert) and its featureKey and eventKey (reserved: no other feature may take them). Restoring it brings all of it back.`;

const Params = t.Object({ feature: t.String({ minLength: 1, maxLength: 200, description: "The feature's cflag_ id or its featureKey" }) });
const TAGS = ["Dashboard: catalog"];

export function dashboardFeatureRoutes(deps: DashboardDeps) {
  const secret = deps.config.tokenSigningSecret;
  const now = () => new Date(deps.clock.now());
  const actor = (principal: Parameters<typeof actorOf>[0], request: Request) => actorOf(principal, requestState(request).requestId);
  return new Elysia()
    .use(authPlugin(deps))
    .get(
      "/dashboard/features",
      async ({ principal, query }) => {
        const page = pageRequest(secret, "dashboard-features", principal, query);
        const rows = await listFeaturePage(deps.sql, principal, page.beforeSeq, page.fetch, query.includeArchived === true);
        return pageResponse(secret, "dashboard-features", principal, page, rows, presentDashboardFeature);
      },
      {
        access: true,
        query: t.Object({ ...PageQuery, ...IncludeArchived }),
        response: Page(DashboardFeature),
        detail: { tags: TAGS, summary: "List features, newest first", description: ARCHIVE },
      },
    )
    .post(
      "/dashboard/features",
      async ({ principal, body, request, set }) => {
        const feature = await createFeature(deps.sql, principal, body, actor(principal, request));
        deps.entitlements.catalogChanged(principal);
        set.status = 201;
        return { data: presentDashboardFeature(feature) };
      },
      {
        access: true,
        body: FeatureCreate,
        response: { 201: data(DashboardFeature), 400: ValidationErrorBody, 409: ErrorBody },
        detail: {
          tags: TAGS,
          summary: "Create a feature",
          description: "A featureKey or eventKey already naming another feature of the team and environment (archived ones included) is a 409.",
        },
      },
    )
    .get(
      "/dashboard/features/:feature",
      async ({ principal, params }) => ({ data: presentDashboardFeature(await getFeature(deps.sql, principal, params.feature)) }),
      {
        access: true,
        params: Params,
        response: { 200: data(DashboardFeature), 404: ErrorBody },
        detail: { tags: TAGS, summary: "A feature by id or featureKey (archived ones too)" },
      },
    )
    .patch(
      "/dashboard/features/:feature",
      async ({ principal, params, body, request }) => {
        const id = await resolveFeatureId(deps.sql, principal, params.feature);
        const { archived, ...patch } = body;
        let feature = await updateFeature(deps.sql, principal, actor(principal, request), id, patch);
        if (archived !== undefined) feature = await setFeatureArchived(deps.sql, principal, actor(principal, request), id, archived, now());
        deps.entitlements.catalogChanged(principal);
        return { data: presentDashboardFeature(feature) };
      },
      {
        access: true,
        params: Params,
        body: FeaturePatch,
        response: { 200: data(DashboardFeature), 400: ValidationErrorBody, 404: ErrorBody, 409: ErrorBody },
        detail: {
          tags: TAGS,
          summary: "Update a feature (partial); archive or restore it",
          description: `The fields and rules of PUT /features/{id}, plus \`archived\`. ${ARCHIVE}`,
        },
      },
    )
    .delete(
      "/dashboard/features/:feature",
      async ({ principal, params, request }) => {
        const id = await resolveFeatureId(deps.sql, principal, params.feature);
        const result = await removeFeature(deps.sql, principal, actor(principal, request), id, now());
        deps.entitlements.catalogChanged(principal);
        return { data: result };
      },
      {
        access: true,
        params: Params,
        response: { 200: data(Removed), 404: ErrorBody, 409: ErrorBody },
        detail: {
          tags: TAGS,
          summary: "Delete a feature, or archive one with usage history",
          description: `As DELETE /features/{id}: a feature that plans use is a 409 (remove its entitlements first, or archive it with PATCH). A feature with usage history (metered events, usage counters, refusal tallies) is archived (\`outcome: archived\`) so its history keeps naming it; any other is deleted with its company overrides (\`outcome: deleted\`). ${ARCHIVE}`,
        },
      },
    );
}
