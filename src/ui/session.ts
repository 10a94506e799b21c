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

/** An answer of the API a page cannot go on from (a database away: 503), shown as the API put it. */
export class ApiRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The session, or null when the browser has none (or it expired, or was revoked): the page sends it to sign in.
 * Any other refusal is not "signed out" and is shown as it is.
 */
export async function readSession(api: Api): Promise<PageSession | null> {
  const answer = await api({ method: "GET", path: "/dashboard/session" });
  if (answer.status === 401) return null;
  if (answer.status !== 200) throw new ApiRefusal(answer.status, answer.body?.error ?? `The service answered ${answer.status}`);
  const s = answer.body.data;
  return { ...s, may: (method: string, path: string) => sessionMayCall(s.roles, method, path) };
}
