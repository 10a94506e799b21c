/** The signed-in session as the pages use it, read from GET /dashboard/session on every page. */
import { sessionMayCall } from "../auth/access";
import type { Api } from "./api";

export interface PageSession {
  operator: { id: string; email: string; name: string };
  team: { id: string; name: string };
  environment: "development" | "production";
  roles: string[];
  csrfToken: string;
  /** whether the API would accept this write from this session (the route table's row, read: src/auth/access.ts) */
  may(method: string, path: string): boolean;
}

/** The session, or null when the browser has none (or it expired, or was revoked): the page sends it to sign in. */
export async function readSession(api: Api): Promise<PageSession | null> {
  const answer = await api({ method: "GET", path: "/dashboard/session" });
  if (answer.status !== 200) return null;
  const s = answer.body.data;
  return { ...s, may: (method: string, path: string) => sessionMayCall(s.roles, method, path) };
}
