/**
 * The dashboard's view of one company (GET /dashboard/companies/{id}, as GET /companies lists it), its entitlements and its overrides (docs/customers.md#entitlements-and-overrides):
 * GET /dashboard/companies/{id}/entitlements and .../check answer what GET /entitlements and GET /check answer for
 * the company (the same service, not a copy of its rules); PUT and DELETE .../overrides/{feature} set and remove
 * an override, as the CLI's `override set` and `override remove` do (the same service and checks).
 */
import { Elysia } from "elysia";
import type { Sql } from "../../../db/client";
import { authPlugin, type AuthDeps } from "../../../http/auth";
import { data } from "../../../http/envelope";
import { documentedResponses } from "../../../http/openapi";
import { ErrorBody, ValidationErrorBody } from "../../../http/error-schemas";
import { requestState } from "../../../http/request-context";
import type { Clock } from "../../../lib/clock";
import { apiError } from "../../../lib/errors";
import type { Tenant } from "../../../lib/tenant";
import type { Principal } from "../../../auth/kinds";
import { actorOf } from "../../audit/repo";
import { presentOverride, presentRemovedOverride } from "../../catalog/present";
import { EntitlementSet, grantOf } from "../../catalog/entitlements/routes";
import { resolveFeatureId } from "../../catalog/features/read";
import type { EntitlementLookups } from "../runtime";
import { checkFeature, listEntitlements } from "../service";
import { removeOverride, setOverride } from "../../customers/plan";
import { findCompanyByRef, findCompanyIdByKeys } from "../../customers/repo";
import { presentCompany } from "../../customers/present";
import { Company } from "../../customers/schemas";
import { CHECK, COMPANY, ENTITLEMENTS, REMOVE_OVERRIDE, SET_OVERRIDE } from "./docs";
import { presentOverrides } from "./present";
import { CheckResult, CompanyCheckQuery, CompanyEntitlements, CompanyParams, OverrideParams, OverrideRecord, RemovedOverride } from "./schemas";

type RouteDeps = AuthDeps & {
  sql: Sql;
  clock: Clock;
  entitlements: EntitlementLookups & { companyChanged(tenant: Tenant, companyId: string): void };
};

const tags = ["Dashboard: customers"];

export function companyEntitlementRoutes(deps: RouteDeps) {
  /** The company as /check sees it (our id or the integrator's), or 404. */
  const company = async (principal: Principal, ref: string) => {
    const state = await deps.entitlements.company(principal, ref);
    if (!state) throw apiError("not_found", `No company ${ref}`);
    return state;
  };
  /** The company a write names (our id or the integrator's), read from the database, or 404. */
  const companyId = async (principal: Principal, ref: string) => {
    const id = await findCompanyIdByKeys(deps.sql, principal, { id: ref });
    if (!id) throw apiError("not_found", `No company ${ref}`);
    return id;
  };
  const actor = (principal: Principal, request: Request) => actorOf(principal, requestState(request).requestId);
  return new Elysia()
    .use(authPlugin(deps))
    .get(
      "/dashboard/companies/:id",
      async ({ principal, params }) => {
        const row = await findCompanyByRef(deps.sql, principal, params.id);
        if (!row) throw apiError("not_found", `No company ${params.id}`);
        return { data: presentCompany(row) };
      },
      {
        access: true,
        params: CompanyParams,
        response: { 200: data(Company), 404: ErrorBody },
        detail: { tags, summary: "One company: its details, traits, plan and add-ons", description: COMPANY },
      },
    )
    .get(
      "/dashboard/companies/:id/entitlements",
      async ({ principal, params }) => {
        const state = await company(principal, params.id);
        const answer = await listEntitlements(deps, principal, { company: state.id });
        return { data: { ...answer, overrides: presentOverrides(await deps.entitlements.catalog(principal), state) } };
      },
      {
        access: true,
        params: CompanyParams,
        // Documented, not checked by the response hook: CheckResult is the hot routes' schema, documented so (src/http/openapi.ts).
        detail: {
          tags,
          summary: "What a company gets, feature by feature (GET /entitlements' answer), and its overrides",
          description: ENTITLEMENTS,
          responses: documentedResponses({ 200: data(CompanyEntitlements), 404: ErrorBody }),
        },
      },
    )
    .get(
      "/dashboard/companies/:id/check",
      async ({ principal, params, query }) => {
        const state = await company(principal, params.id);
        return { data: await checkFeature(deps, principal, { ...query, company: state.id }) };
      },
      {
        access: true,
        params: CompanyParams,
        query: CompanyCheckQuery,
        detail: {
          tags,
          summary: "GET /check's answer for a company and a feature",
          description: CHECK,
          responses: documentedResponses({ 200: data(CheckResult), 404: ErrorBody }),
        },
      },
    )
    .put(
      "/dashboard/companies/:id/overrides/:feature",
      async ({ principal, params, body, request }) => {
        const id = await companyId(principal, params.id);
        const featureId = await resolveFeatureId(deps.sql, principal, params.feature);
        const row = await setOverride(deps.sql, principal, { company: id, featureId, ...grantOf(body) }, actor(principal, request));
        deps.entitlements.companyChanged(principal, id); // this instance at once; others by NOTIFY
        return { data: presentOverride(row) };
      },
      {
        access: true,
        params: OverrideParams,
        body: EntitlementSet,
        response: { 200: data(OverrideRecord), 400: ValidationErrorBody, 404: ErrorBody },
        detail: { tags, summary: "Set a company's override of a feature", description: SET_OVERRIDE },
      },
    )
    .delete(
      "/dashboard/companies/:id/overrides/:feature",
      async ({ principal, params, request }) => {
        const id = await companyId(principal, params.id);
        const featureId = await resolveFeatureId(deps.sql, principal, params.feature);
        const row = await removeOverride(deps.sql, principal, { company: id, featureId }, actor(principal, request));
        deps.entitlements.companyChanged(principal, id);
        return { data: presentRemovedOverride(row) };
      },
      {
        access: true,
        params: OverrideParams,
        response: { 200: data(RemovedOverride), 404: ErrorBody },
        detail: { tags, summary: "Remove a company's override of a feature: its plans apply again", description: REMOVE_OVERRIDE },
      },
    );
}
