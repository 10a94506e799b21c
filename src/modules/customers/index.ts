/** GET /companies and GET /users: paginated, searchable customer lists (customers.read); PATCH /companies/{id}. */
import { Elysia, t } from "elysia";
import { ErrorBody, ValidationErrorBody } from "../../http/error-schemas";
import { authPlugin } from "../../http/auth";
import { requestState } from "../../http/request-context";
import { Page, PageQuery, SearchQuery, pageRequest, pageResponse } from "../../http/pagination";
import { type AuthDeps } from "../../http/auth";
import type { Sql } from "../../db/client";
import type { Clock } from "../../lib/clock";
import type { Tenant } from "../../lib/tenant";
import { likePattern } from "../../lib/like-pattern";
import { Company, CompanyPatch, User } from "./schemas";
import { presentCompany, presentUser } from "./present";
import { companyIdFilter, listCompanyPage, listUserPage } from "./repo";
import { updateCompany } from "./update";
import { actorOf } from "../audit/repo";

const PATCH_DESCRIPTION = `Partial update: omitted fields keep their value, and an empty body changes nothing (it returns the company).
The path \`id\` is our \`comp_…\` id or your own id for the company (\`externalId\`).

- \`name\` replaces the name.
- \`traits\` is merged into the existing traits key by key; a key set to \`null\` is removed.
- \`activePlanId\` must be a plan of this team and environment (else 400 with \`details["body.activePlanId"]\`); \`null\` or \`""\` takes the company off its plan.
  The first time a company gets a plan, its \`billingAnchor\` is set to now; it never moves after that (quota periods reset on it).
- \`activeAddOnIds\` replaces the list of add-on plans; every id must be an add-on (a plan of kind \`add_on\`) of this team and environment (else 400 with \`details["body.activeAddOnIds"]\`). \`activePlanId\` must be of kind \`plan\`. An archived plan or add-on takes no new company; one that already holds it keeps it.

No proration or charge happens here: the billed plan change is the spec's \`POST /companies/plan\` (not built yet; it comes with subscriptions). Each change is written to the audit log as \`company.update\`.
404 \`{error}\` for an unknown company or one of another team or environment.`;

/** `search` as an ILIKE pattern that matches the text literally; no search (absent or empty): null, every row. */
export function containsPattern(search: string | undefined): string | null {
  return search ? likePattern(search) : null;
}

/** What these routes need; the service's wiring (src/app-deps.ts) provides it (entitlements: this instance's caches). */
type RouteDeps = AuthDeps & {
  sql: Sql;
  clock: Clock;
  config: { tokenSigningSecret: string };
  entitlements: { companyChanged(tenant: Tenant, companyId: string): void };
};

export function customerRoutes(deps: RouteDeps) {
  const secret = deps.config.tokenSigningSecret;
  return new Elysia()
    .use(authPlugin(deps))
    .get(
      "/companies",
      async ({ principal, query }) => {
        const page = pageRequest(secret, "companies", principal, query);
        const rows = await listCompanyPage(deps.sql, principal, page, containsPattern(query.search));
        return pageResponse(page, rows, presentCompany);
      },
      {
        access: true,
        query: t.Object({ ...PageQuery, ...SearchQuery }),
        response: Page(Company),
        detail: { tags: ["Companies"], summary: "List companies, newest first" },
      },
    )
    .get(
      "/users",
      async ({ principal, query }) => {
        const page = pageRequest(secret, "users", principal, query);
        const rows = await listUserPage(deps.sql, principal, page, {
          pattern: containsPattern(query.search),
          companyId: await companyIdFilter(deps.sql, principal, query.companyId),
        });
        return pageResponse(page, rows, presentUser);
      },
      {
        access: true,
        query: t.Object({
          ...PageQuery,
          ...SearchQuery,
          companyId: t.Optional(t.String({ minLength: 1, maxLength: 200, description: "Our comp_ id or your id for the company" })),
        }),
        response: Page(User),
        detail: { tags: ["Companies"], summary: "List users, newest first" },
      },
    )
    .patch(
      "/companies/:id",
      async ({ principal, params, body, request }) => {
        const operation = { tenant: principal, actor: actorOf(principal, requestState(request).requestId), now: new Date(deps.clock.now()) };
        const company = await updateCompany(deps.sql, operation, params.id, body);
        deps.entitlements.companyChanged(principal, company.id); // this instance at once; others by NOTIFY
        return { data: presentCompany(company) };
      },
      {
        access: true,
        params: t.Object({ id: t.String({ minLength: 1, maxLength: 200, description: "Our comp_… id or your id for the company" }) }),
        body: CompanyPatch,
        response: { 200: t.Object({ data: Company }), 400: ValidationErrorBody, 404: ErrorBody },
        detail: { tags: ["Companies"], summary: "Update a company: name, traits, plan, add-ons", description: PATCH_DESCRIPTION },
      },
    );
}
