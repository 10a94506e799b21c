/** The customers section's routes: companies and users (search, cursor pages) and one company's page. */
import { readAll, type Api, type ApiAnswer } from "../../api";
import type { Section } from "../../kit";
import { page } from "../../response";
import { ApiRefusal, type PageSession } from "../../session";
import { COMPANY_INVOICES, CompanyDetailPage, type CompanyInvoices, type InvoiceView } from "./detail";
import { CompaniesPage, PATH, USERS_PATH, UsersPage, type CompanyView } from "./page";

const listQuery = (params: Record<string, string | undefined>) => {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) query.set(k, v);
  const text = query.toString();
  return text ? `?${text}` : "";
};

/** Plan and add-on names by id, when the member may read the catalog (else the pages print ids). */
export async function planNamesOf(api: Api, session: PageSession): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (!session.may("GET", "/dashboard/plans")) return names;
  const answer = await readAll(api, "/dashboard/plans?includeArchived=true");
  if (answer.status === 200) for (const p of answer.body.data as { id: string; name: string }[]) names.set(p.id, p.name);
  return names;
}

/** A part of a page: the API's data, or null when the member's roles do not reach it (any other failure is shown). */
async function part<T>(session: PageSession, route: string, call: () => Promise<ApiAnswer>): Promise<T | null> {
  if (!session.may("GET", route)) return null;
  const answer = await call();
  if (answer.status === 403) return null;
  if (answer.status !== 200) throw new ApiRefusal(answer.status, answer.body?.error ?? `The service answered ${answer.status}`);
  return answer.body.data as T;
}

/** The company's newest invoices (the invoice list filtered by company), and whether it has more than the page shows. */
async function invoicesOf(api: Api, company: CompanyView): Promise<CompanyInvoices> {
  const answer = await api({ method: "GET", path: `/dashboard/invoices${listQuery({ companyId: company.id, limit: String(COMPANY_INVOICES) })}` });
  if (answer.status !== 200) throw new ApiRefusal(answer.status, answer.body?.error ?? `The service answered ${answer.status}`);
  return { data: answer.body.data as InvoiceView[], more: answer.body.nextCursor != null };
}

export const customerPages: Section = (kit) => (app) =>
  app
    .get(PATH, ({ request, query }) =>
      kit.signedIn(request, async (api, session) => {
        const search = query.search ?? "";
        const [list, planNames] = await Promise.all([
          api({ method: "GET", path: `/companies${listQuery({ search, cursor: query.cursor })}` }),
          planNamesOf(api, session),
        ]);
        if (list.status !== 200) return kit.refusedBy(list, "The companies could not be read", session);
        return page(
          <CompaniesPage
            session={session}
            search={search}
            companies={list.body.data}
            nextCursor={list.body.nextCursor ?? null}
            planNames={planNames}
          />,
        );
      }),
    )
    .get(USERS_PATH, ({ request, query }) =>
      kit.signedIn(request, async (api, session) => {
        const search = query.search ?? "";
        const list = await api({ method: "GET", path: `/users${listQuery({ search, cursor: query.cursor })}` });
        if (list.status !== 200) return kit.refusedBy(list, "The users could not be read", session);
        return page(<UsersPage session={session} search={search} users={list.body.data} nextCursor={list.body.nextCursor ?? null} />);
      }),
    )
    .get(`${PATH}/:id`, ({ request, params }) =>
      kit.signedIn(request, async (api, session) => {
        const id = encodeURIComponent(params.id);
        const found = await api({ method: "GET", path: `/dashboard/companies/${id}` });
        if (found.status !== 200) return kit.refusedBy(found, "The company could not be read", session);
        const company = found.body.data as CompanyView;
        const companyId = encodeURIComponent(company.id);
        const [planNames, entitlements, subscriptions, invoices, events, users] = await Promise.all([
          planNamesOf(api, session),
          part<never>(session, "/dashboard/companies/{id}/entitlements", () =>
            api({ method: "GET", path: `/dashboard/companies/${companyId}/entitlements` }),
          ),
          part<never>(session, "/dashboard/subscriptions", () => api({ method: "GET", path: `/dashboard/subscriptions?companyId=${companyId}` })),
          session.may("GET", "/dashboard/invoices") ? invoicesOf(api, company) : null,
          part<never>(session, "/events", () => api({ method: "GET", path: `/events?companyId=${companyId}&limit=20` })),
          part<never>(session, "/users", () => api({ method: "GET", path: `/users?companyId=${companyId}` })),
        ]);
        return page(
          <CompanyDetailPage
            session={session}
            company={company}
            planNames={planNames}
            entitlements={entitlements}
            subscriptions={subscriptions}
            invoices={invoices}
            events={events}
            users={users}
          />,
        );
      }),
    );
