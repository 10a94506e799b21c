/** PUT and DELETE /dashboard/plans/{id}/entitlements/{feature}: a feature's entitlement on a plan (catalog:write). */
import { Elysia, t, type Static } from "elysia";
import { ErrorBody, ValidationErrorBody } from "../../../http/error-schemas";
import { authPlugin } from "../../../http/auth";
import { requestState } from "../../../http/request-context";
import { apiError } from "../../../lib/errors";
import { actorOf } from "../../audit/repo";
import type { RouteDeps } from "../write";
import { data } from "../../../http/envelope";
import { presentPlanEntitlement } from "../present";
import { resolveFeatureId } from "../features/read";
import { removeEntitlement, setEntitlement, type EntitlementInput } from "./edit";

const BIGINT_MAX = 2n ** 63n - 1n;
const Quantity = t.Union([t.String({ pattern: "^[0-9]{1,19}$" }), t.Integer({ minimum: 0 })], {
  description: "A whole number (an integer string for values past 2^53)",
});
export const EntitlementSet = t.Object(
  {
    kind: t.Union([t.Literal("boolean"), t.Literal("quota"), t.Literal("credit"), t.Literal("trait")], {
      description: "boolean: on/off; quota: limit per period; credit: creditsPerUse; trait: a rule on a company trait",
    }),
    enabled: t.Optional(t.Boolean({ description: "Default true" })),
    limit: t.Optional(Quantity),
    period: t.Optional(t.Union([t.Literal("day"), t.Literal("week"), t.Literal("month"), t.Literal("lifetime")])),
    creditsPerUse: t.Optional(Quantity),
    traitKey: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
    traitOperator: t.Optional(t.Union([t.Literal("eq"), t.Literal("neq"), t.Literal("gt"), t.Literal("gte"), t.Literal("lt"), t.Literal("lte")])),
    traitValue: t.Optional(t.String({ maxLength: 200 })),
  },
  { $id: "EntitlementSet", examples: [{ kind: "quota", limit: "1000", period: "month" }] },
);

export const PlanEntitlementRecord = t.Object(
  {
    id: t.String(),
    planId: t.String(),
    featureId: t.String(),
    kind: t.String(),
    enabled: t.Boolean(),
    limit: t.Union([t.String(), t.Null()]),
    period: t.Union([t.String(), t.Null()]),
    creditsPerUse: t.Union([t.String(), t.Null()]),
    traitKey: t.Union([t.String(), t.Null()]),
    traitOperator: t.Union([t.String(), t.Null()]),
    traitValue: t.Union([t.String(), t.Null()]),
  },
  { $id: "PlanEntitlementRecord" },
);

function quantity(field: string, value: string | number | undefined): bigint | undefined {
  if (value === undefined) return undefined;
  const n = BigInt(value);
  if (n > BIGINT_MAX) throw apiError("validation_failed", "Validation failed", { [`body.${field}`]: `Expected at most ${BIGINT_MAX}` });
  return n;
}

/** A grant's body (a plan entitlement's, a company override's) as the services take it, quantities as bigint. */
export const grantOf = (b: Static<typeof EntitlementSet>): Omit<EntitlementInput, "planId" | "featureId"> => ({
  kind: b.kind,
  enabled: b.enabled,
  limit: quantity("limit", b.limit),
  period: b.period,
  creditsPerUse: quantity("creditsPerUse", b.creditsPerUse),
  traitKey: b.traitKey,
  traitOperator: b.traitOperator,
  traitValue: b.traitValue,
});

const toGrant = (planId: string, featureId: string, b: Static<typeof EntitlementSet>): EntitlementInput => ({ planId, featureId, ...grantOf(b) });

const Params = t.Object({
  id: t.String({ minLength: 1, maxLength: 200, description: "plan_…" }),
  feature: t.String({ minLength: 1, maxLength: 200, description: "The feature's cflag_ id or its featureKey" }),
});

export function planEntitlementRoutes(deps: RouteDeps) {
  return new Elysia()
    .use(authPlugin(deps))
    .put(
      "/dashboard/plans/:id/entitlements/:feature",
      async ({ principal, params, body, request }) => {
        const featureId = await resolveFeatureId(deps.sql, principal, params.feature);
        const actor = actorOf(principal, requestState(request).requestId);
        const row = await setEntitlement(deps.sql, principal, toGrant(params.id, featureId, body), actor);
        deps.entitlements.catalogChanged(principal); // this instance at once; others by NOTIFY
        return { data: presentPlanEntitlement(row) };
      },
      {
        access: true,
        params: Params,
        body: EntitlementSet,
        response: { 200: data(PlanEntitlementRecord), 400: ValidationErrorBody, 404: ErrorBody, 409: ErrorBody },
        detail: {
          tags: ["Dashboard: catalog"],
          summary: "Set or change a feature's entitlement on a plan",
          description:
            "Replaces any previous entitlement of the feature on the plan. The kind must fit the feature's type (`quota` and `credit` need an `event` feature, `trait` a `trait` feature; 400 otherwise); an archived feature takes no entitlement (409). Companies on the plan get it at once, on every instance.",
        },
      },
    )
    .delete(
      "/dashboard/plans/:id/entitlements/:feature",
      async ({ principal, params, request }) => {
        const featureId = await resolveFeatureId(deps.sql, principal, params.feature);
        const actor = actorOf(principal, requestState(request).requestId);
        const row = await removeEntitlement(deps.sql, principal, { planId: params.id, featureId }, actor);
        deps.entitlements.catalogChanged(principal);
        return { data: presentPlanEntitlement(row) };
      },
      {
        access: true,
        params: Params,
        response: { 200: data(PlanEntitlementRecord), 404: ErrorBody },
        detail: {
          tags: ["Dashboard: catalog"],
          summary: "Remove a feature's entitlement from a plan (answers what was removed)",
          description:
            "Companies on the plan lose what it granted at once; their own overrides stay. 404 when the plan holds no entitlement for the feature.",
        },
      },
    );
}
