/** The audit log section's route: a page of entries (the API's filters and cursor) beside the chain's verification. */
import type { Section } from "../../kit";
import { page } from "../../response";
import { AuditLogPage, FILTERS, PATH, queryOf, type Filters } from "./page";

export const auditLogPages: Section = (kit) => (app) =>
  app.get(PATH, ({ request, query }) =>
    kit.signedIn(request, async (api, session) => {
      const filters: Filters = {};
      for (const name of FILTERS) if (typeof query[name] === "string" && query[name].trim()) filters[name] = query[name].trim();
      const mayReadMembers = session.may("GET", "/dashboard/members");
      const [list, verification, members] = await Promise.all([
        api({ method: "GET", path: `/audit-log${queryOf(filters, typeof query.cursor === "string" ? query.cursor : undefined)}` }),
        api({ method: "GET", path: "/dashboard/audit-log/verification" }),
        mayReadMembers ? api({ method: "GET", path: "/dashboard/members" }) : null,
      ]);
      if (list.status !== 200) return kit.refusedBy(list, "The audit log could not be read", session);
      const people: Record<string, string> = {};
      if (members?.status === 200) for (const m of members.body.data as { operatorId: string; email: string }[]) people[m.operatorId] = m.email;
      const verdictError = verification.status === 200 ? undefined : (verification.body?.error ?? `The service answered ${verification.status}`);
      return page(
        <AuditLogPage
          session={session}
          entries={list.body.data}
          nextCursor={list.body.nextCursor ?? null}
          filters={filters}
          verdict={verification.status === 200 ? verification.body.data : null}
          verdictError={verdictError}
          people={people}
        />,
      );
    }),
  );
