/** GET /companies and GET /users: paginated, searchable customer lists (customers.read). */
import { Elysia, t } from "elysia";
import { authPlugin } from "../../plugins/auth";
import { Page, PageQuery, SearchQuery, pageRequest, pageResponse } from "../../lib/pagination";
import type { AppDeps } from "../../app-deps";
import { Company, User, presentCompany, presentUser } from "./model";
import { listCompanyPage, listUserPage } from "./repo";

/** `search` as an ILIKE pattern that matches the text literally (its % and _ escaped). */
export function containsPattern(search: string | undefined): string | null {
  if (!search) return null;
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function customerRoutes(deps: AppDeps) {
  const secret = deps.config.tokenSigningSecret;
  return new Elysia()
    .use(authPlugin(deps))
    .get(
      "/companies",
      async ({ principal, query }) => {
        const page = pageRequest(secret, "companies", principal, query);
        const rows = await listCompanyPage(deps.sql, principal, page.beforeSeq, page.fetch, containsPattern(query.search));
        return pageResponse(secret, "companies", principal, page, rows, presentCompany);
      },
      {
        access: "GET /companies",
        query: t.Object({ ...PageQuery, ...SearchQuery }),
        response: Page(Company),
        detail: { tags: ["Companies"], summary: "List companies, newest first" },
      },
    )
    .get(
      "/users",
      async ({ principal, query }) => {
        const page = pageRequest(secret, "users", principal, query);
        const rows = await listUserPage(deps.sql, principal, page.beforeSeq, page.fetch, containsPattern(query.search), query.companyId ?? null);
        return pageResponse(secret, "users", principal, page, rows, presentUser);
      },
      {
        access: "GET /users",
        query: t.Object({ ...PageQuery, ...SearchQuery, companyId: t.Optional(t.String({ minLength: 1, maxLength: 200 })) }),
        response: Page(User),
        detail: { tags: ["Companies"], summary: "List users, newest first" },
      },
    );
}
