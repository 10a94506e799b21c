/**
 * Feature routes: PUT /features/{id} and DELETE /features/{id} (the spec's), and the dashboard's, addressed by cflag_ id or
 * featureKey (catalog:read / catalog:write).
 */
import { Elysia, t } from "elysia";
import { ErrorBody, ValidationErrorBody } from "../../../http/error-schemas";
import { authPlugin } from "../../../http/auth";
import { requestState } from "../../../http/request-context";
import { Page, PageQuery, pageRequest, pageResponse } from "../../../http/pagination";
import { NonBlankText } from "../../../http/non-blank-text";
import { actorOf } from "../../audit/repo";
import type { RouteDeps } from "../write";
import { data } from "../../../http/envelope";
import { DashboardFeature, Feature, FeatureParams, FeatureUpdate, IncludeArchived, Removed } from "../schemas";
import { presentDashboardFeature, presentFeature } from "../present";
import { getFeature, listFeaturePage, resolveFeatureId } from "./read";
import { createFeature, deleteFeature, removeFeature, setFeatureArchived, updateFeature } from "./edit";

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

const Params = t.Object({ feature: t.String({ minLength: 1, maxLength: 200, description: "The feature's cflag_ id or its featureKey" }) });
const TAGS = ["Dashboard: catalog"];

export function featureRoutes(deps: RouteDeps) {
  const secret = deps.config.tokenSigningSecret;
  const now = () => new Date(deps.clock.now());
  const actor = (principal: Parameters<typeof actorOf>[0], request: Request) => actorOf(principal, requestState(request).requestId);
  return new Elysia()
    .use(authPlugin(deps))
    .get(
      "/dashboard/features",
      async ({ principal, query }) => {
        const page = pageRequest(secret, "dashboard-features", principal, query);
        const rows = await listFeaturePage(deps.sql, principal, page, query.includeArchived === true);
        return pageResponse(page, rows, presentDashboardFeature);
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
        let feature = await updateFeature(deps.sql, principal, actor(principal, request), { id, patch });
        if (archived !== undefined)
          feature = await setFeatureArchived(deps.sql, { tenant: principal, actor: actor(principal, request), now: now() }, id, archived);
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
        const result = await removeFeature(deps.sql, { tenant: principal, actor: actor(principal, request), now: now() }, id);
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
    )
    .put(
      "/features/:id",
      async ({ principal, params, body, request }) => {
        const feature = await updateFeature(deps.sql, principal, actorOf(principal, requestState(request).requestId), { id: params.id, patch: body });
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
