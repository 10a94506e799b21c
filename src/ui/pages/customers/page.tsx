/** The customers section's lists: companies and users, each with the API's search and its cursor pages. */
import { ListTable, Shell, when } from "../../layout";
import type { PageSession } from "../../session";
import { companyHref, nextHref } from "./parts";

export interface CompanyView {
  id: string;
  name: string;
  email: string;
  walletAddress: string;
  externalId: string;
  traits: Record<string, unknown>;
  activePlanId: string;
  activeAddOnIds: string[];
  billingAnchor: string | null;
  createdAt: string;
  lastSeenAt: string;
}

export interface UserView {
  id: string;
  name: string | null;
  email: string | null;
  walletAddress: string | null;
  externalId: string | null;
  traits: Record<string, unknown>;
  companyIds: string[];
  lastSeenAt: string;
}

export const PATH = "/dashboard/customers";
export const USERS_PATH = "/dashboard/customers/users";

/** Companies | Users, the current one marked. */
function Tabs({ current }: { current: "companies" | "users" }) {
  return (
    <nav aria-label="Customers" class="tabs">
      <a href={PATH} aria-current={current === "companies" ? "page" : undefined}>
        Companies
      </a>
      <a href={USERS_PATH} aria-current={current === "users" ? "page" : undefined}>
        Users
      </a>
    </nav>
  );
}

function SearchForm({ action, label, search }: { action: string; label: string; search: string }) {
  return (
    <form method="get" action={action} class="search" role="search">
      <label for="search" safe>
        {label}
      </label>
      <input id="search" name="search" type="search" value={search} />
      <button type="submit">Search</button>
    </form>
  );
}

export interface CompaniesProps {
  session: PageSession;
  search: string;
  companies: CompanyView[];
  nextCursor: string | null;
  /** plan id -> name, when the session may read the catalog */
  planNames: Map<string, string>;
}

export function CompaniesPage({ session, search, companies, nextCursor, planNames }: CompaniesProps) {
  const title = search ? `Companies matching “${search}”` : `Companies in ${session.environment}`;
  const empty = search ? "No company matches." : "No companies yet.";
  return (
    <Shell title="Customers" session={session} path={PATH}>
      <Tabs current="companies" />
      <SearchForm action={PATH} label="Search companies (name, email or wallet)" search={search} />
      <ListTable
        id="companies-title"
        title={title}
        empty={empty}
        columns={["Name", "Your id", "Email", "Plan", "Last seen"]}
        rows={companies.map((c) => {
          const name = c.name || c.externalId || c.id;
          const plan = c.activePlanId ? (planNames.get(c.activePlanId) ?? c.activePlanId) : "—";
          return (
            <tr>
              <td>
                <a href={companyHref(c.id)} safe>
                  {name}
                </a>
              </td>
              <td safe>{c.externalId || "—"}</td>
              <td safe>{c.email || "—"}</td>
              <td safe>{plan}</td>
              <td safe>{when(c.lastSeenAt)}</td>
            </tr>
          );
        })}
      >
        {nextCursor ? (
          <p>
            <a href={nextHref(PATH, { search }, nextCursor)}>Next page</a>
          </p>
        ) : (
          ""
        )}
      </ListTable>
    </Shell>
  );
}

export interface UsersProps {
  session: PageSession;
  search: string;
  users: UserView[];
  nextCursor: string | null;
}

export function UsersPage({ session, search, users, nextCursor }: UsersProps) {
  const title = search ? `Users matching “${search}”` : `Users in ${session.environment}`;
  const empty = search ? "No user matches." : "No users yet.";
  return (
    <Shell title="Customers" session={session} path={USERS_PATH}>
      <Tabs current="users" />
      <SearchForm action={USERS_PATH} label="Search users (name, email or wallet)" search={search} />
      <ListTable
        id="users-title"
        title={title}
        empty={empty}
        columns={["Name", "Email", "Your id", "Companies", "Last seen"]}
        rows={users.map((u) => (
          <tr>
            <td safe>{u.name || "—"}</td>
            <td safe>{u.email || "—"}</td>
            <td safe>{u.externalId || "—"}</td>
            <td>
              {u.companyIds.map((id) => (
                <a href={companyHref(id)} class="chip" safe>
                  {id}
                </a>
              ))}
            </td>
            <td safe>{when(u.lastSeenAt)}</td>
          </tr>
        ))}
      >
        {nextCursor ? (
          <p>
            <a href={nextHref(USERS_PATH, { search }, nextCursor)}>Next page</a>
          </p>
        ) : (
          ""
        )}
      </ListTable>
    </Shell>
  );
}
