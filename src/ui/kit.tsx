/**
 * What every section of the dashboard uses to answer (docs/dashboard.md#how-a-page-works): the API for this
 * browser with its session, a refusal page, a form's fields, and one way to send a form's write to the API.
 * A section is a folder of src/ui/pages with its components (page.tsx) and its routes (routes.tsx), which
 * take this kit and add their routes to the one Elysia instance of src/ui/routes.tsx (so its error mapping and
 * same-origin check hold for them too).
 */
import type { Elysia } from "elysia";
import { presentedCredential } from "../auth/resolve";
import { timingSafeEqual } from "../lib/timing-safe";
import { apiDocumentFor, apiFor, type Api, type ApiAnswer, type ApiCall, type ApiFetch } from "./api";
import { page, redirect } from "./response";
import { readSession, type PageSession } from "./session";
import { ErrorPage } from "./pages/error";

export type Form = Record<string, string | undefined>;

/**
 * The form's fields (Elysia parses urlencoded bodies; anything else arrives as nothing). A name posted more than
 * once arrives as a list: the sections that post lists (checkboxes) read them as lists; any other field read as
 * text goes through `given`/`text`, which never take a list for a string.
 */
export const formOf = (body: unknown): Form => (body && typeof body === "object" ? (body as Form) : {});
/** A field as text: a list (the name posted twice) is its last value, anything else not text is empty. */
export const text = (value: unknown): string => {
  const last = Array.isArray(value) ? value.at(-1) : value;
  return typeof last === "string" ? last : "";
};
/** Optional text fields: empty means "not given" to the API. */
export const given = (value: unknown): string | undefined => {
  const typed = text(value);
  return typed.trim() === "" ? undefined : typed;
};

export const SIGN_IN = "/dashboard/sign-in";

export interface PageKit {
  /** the API for this browser, and its session; null: the page sends it to sign in */
  context(request: Request): Promise<{ api: Api; session: PageSession | null }>;
  /** the API for this browser without reading its session (sign-in, sign-out) */
  apiOf(request: Request): Api;
  /** an error page with the status and message (the API's, as it put them) */
  refused(status: number, message: string, session?: PageSession | null): Promise<Response>;
  /** a page for a signed-in browser: `render` with its API and session, or a redirect to sign in */
  signedIn(request: Request, render: (api: Api, session: PageSession) => Response | Promise<Response>): Promise<Response>;
  /**
   * A form's write to the API: the call made with the form's CSRF token (and its Idempotency-Key, when the
   * form carries one). The caller decides what the answer shows.
   */
  send(api: Api, form: Form, call: Omit<ApiCall, "csrf" | "idempotencyKey">): Promise<ApiAnswer>;
  /** the refusal page for an answer that is not what the page expected, with the API's message */
  refusedBy(answer: ApiAnswer, fallback: string, session?: PageSession | null): Promise<Response>;
  /**
   * Ends the session this browser held, if any: signing in again (another team, a one-time link) would otherwise
   * leave it valid until it expires (SameSite=Strict makes every link from elsewhere arrive signed out).
   */
  endSession(request: Request): Promise<void>;
  /** a document the API answers (`path` under /api/v1: a PDF, an XML export) as it came, not read as JSON */
  document(request: Request, path: string): Promise<Response>;
}

/** A section's routes, added to the dashboard's one Elysia instance. */
export type Section = (kit: PageKit) => (app: Elysia<any, any, any, any, any, any, any>) => Elysia<any, any, any, any, any, any, any>;

const encoder = new TextEncoder();
/**
 * Whether the form carries the session's CSRF token: for a page whose post the API does not check itself (a read
 * shown only on a post, as a webhook's secret; a sign-in into another team), as the API would for a write.
 */
export const csrfMatches = (form: Form, session: PageSession): boolean =>
  typeof form.csrf === "string" && form.csrf !== "" && timingSafeEqual(encoder.encode(form.csrf), encoder.encode(session.csrfToken));

export function pageKit(apiFetch: ApiFetch): PageKit {
  const refused = (status: number, message: string, session: PageSession | null = null) =>
    page(<ErrorPage status={status} message={message} session={session} />, status);
  const context = async (request: Request) => {
    const api = apiFor(apiFetch, request);
    return { api, session: await readSession(api) };
  };
  return {
    context,
    apiOf: (request) => apiFor(apiFetch, request),
    refused,
    signedIn: async (request, render) => {
      const { api, session } = await context(request);
      return session ? render(api, session) : redirect(SIGN_IN);
    },
    send: (api, form, call) => api({ ...call, csrf: form.csrf ?? "", idempotencyKey: given(form.idempotencyKey) }),
    endSession: async (request) => {
      if (!presentedCredential(request.headers)) return; // no cookie: nothing to end, no session to read
      const { api, session } = await context(request);
      if (session) await api({ method: "POST", path: "/dashboard/sign-out", csrf: session.csrfToken });
    },
    refusedBy: (answer, fallback, session = null) =>
      refused(answer.status, typeof answer.body?.error === "string" ? answer.body.error : fallback, session),
    document: (request, path) => apiDocumentFor(apiFetch, request)(path),
  };
}
