/**
 * The dashboard's pages at /dashboard (docs/dashboard.md). Each handler reads the session, calls the API in
 * process (./api.ts) and renders its answer; a form post goes to the API with the form's CSRF token, and on
 * a refusal the same form comes back with the API's messages beside the fields and what was typed kept.
 */
import { Elysia } from "elysia";
import { apiFor, fieldErrors, type Api, type ApiFetch } from "./api";
import { asset } from "./assets";
import { ApiKeysPage, RevokePage, type ApiKeyView } from "./pages/api-keys";
import { FeaturesPage } from "./pages/features";
import { SignInPage } from "./pages/sign-in";
import { page, redirect, safeReturn, sameOrigin } from "./response";
import { ApiRefusal, readSession, type PageSession } from "./session";
import type { Logger } from "../lib/logger";
import { presentedCredential } from "../auth/resolve";
import { loggedError } from "../http/logged-error";
import { ErrorPage } from "./pages/error";

type Form = Record<string, string | undefined>;

/** The form's fields as strings (Elysia parses urlencoded bodies; anything else arrives as nothing). */
const formOf = (body: unknown): Form => (body && typeof body === "object" ? (body as Form) : {});
/** Optional text fields: empty means "not given" to the API. */
const given = (value: string | undefined) => (value === undefined || value.trim() === "" ? undefined : value);

const SIGN_IN = "/dashboard/sign-in";

export function dashboardPages(apiFetch: ApiFetch, logger: Logger) {
  /** The API for this browser, and its session; null: the page sends it to sign in. */
  const context = async (request: Request): Promise<{ api: Api; session: PageSession | null }> => {
    const api = apiFor(apiFetch, request);
    return { api, session: await readSession(api) };
  };
  // Signing in again ends the session this browser held (SameSite=Strict makes every link from elsewhere arrive signed
  // out): left alone, each would stay valid until it expires.
  const endPreviousSession = async (request: Request) => {
    if (!presentedCredential(request.headers)) return; // no cookie: nothing to end, no session to read
    const { api, session } = await context(request);
    if (session) await api({ method: "POST", path: "/dashboard/sign-out", csrf: session.csrfToken });
  };
  const refused = (status: number, message: string, session: PageSession | null = null) =>
    page(<ErrorPage status={status} message={message} session={session} />, status);

  const keysPage = async (api: Api, session: PageSession, extra: Partial<Parameters<typeof ApiKeysPage>[0]> = {}, status = 200) => {
    const list = await api({ method: "GET", path: "/dashboard/api-keys" });
    if (list.status !== 200) return refused(list.status, list.body?.error ?? "The keys could not be read", session);
    return page(<ApiKeysPage session={session} keys={list.body.data as ApiKeyView[]} {...extra} />, status);
  };
  const featuresPage = async (api: Api, session: PageSession, cursor: string | undefined, extra: object = {}, status = 200) => {
    const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : "";
    const list = await api({ method: "GET", path: `/dashboard/features${query}` });
    if (list.status !== 200) return refused(list.status, list.body?.error ?? "The features could not be read", session);
    return page(<FeaturesPage session={session} features={list.body.data} nextCursor={list.body.nextCursor ?? null} {...extra} />, status);
  };

  return (
    new Elysia({ name: "dashboard-pages" })
      // A page never shows an exception's text: a refusal of the API as the API put it, anything else logged.
      .onError(({ code, error, request }) => {
        if (code === "NOT_FOUND") return refused(404, "There is no such page.");
        // A body the framework cannot parse is the sender's mistake, not ours: a 400, and no error in the log.
        if (code === "PARSE") return refused(400, "This form could not be read.");
        if (error instanceof ApiRefusal) return refused(error.status, error.message);
        logger.error("dashboard page failed", { path: new URL(request.url).pathname, error: loggedError(error).message });
        return refused(500, "Something went wrong; it has been logged.");
      })
      // Every post comes from one of our own pages (./response.ts sameOrigin), before anything else is read.
      .onBeforeHandle(({ request }) => {
        if (request.method === "POST" && !sameOrigin(request)) return refused(403, "This form was posted from another site.");
      })
      .get("/dashboard/assets/:file", ({ params }) => asset(params.file) ?? new Response("Not found", { status: 404 }))
      .get("/dashboard", async ({ request }) => redirect((await context(request)).session ? "/dashboard/api-keys" : SIGN_IN))
      .get(SIGN_IN, () => page(<SignInPage />))
      .post(SIGN_IN, async ({ request, body }) => {
        const form = formOf(body);
        const api = apiFor(apiFetch, request);
        const input = { email: form.email ?? "", password: form.password ?? "", teamId: given(form.teamId) };
        const answer = await api({ method: "POST", path: "/dashboard/sign-in", body: input });
        if (answer.status === 200) {
          await endPreviousSession(request);
          return redirect("/dashboard/api-keys", answer.setCookie);
        }
        const { form: error, fields } = fieldErrors(answer);
        return page(<SignInPage email={form.email} teamId={form.teamId} error={error} fields={fields} />, answer.status);
      })
      .post(`${SIGN_IN}/link`, async ({ request, body }) => {
        const answer = await apiFor(
          apiFetch,
          request,
        )({ method: "POST", path: "/dashboard/sign-in/link", body: { token: formOf(body).token ?? "" } });
        if (answer.status === 200) {
          await endPreviousSession(request);
          return redirect("/dashboard/api-keys", answer.setCookie);
        }
        const { form: error, fields } = fieldErrors(answer);
        return page(<SignInPage linkError={error ?? fields.token ?? null} />, answer.status);
      })
      .post("/dashboard/sign-out", async ({ request, body }) => {
        const answer = await apiFor(apiFetch, request)({ method: "POST", path: "/dashboard/sign-out", csrf: formOf(body).csrf ?? "" });
        if (answer.status === 200 || answer.status === 401) return redirect(SIGN_IN, answer.setCookie);
        return refused(answer.status, answer.body?.error ?? "Sign-out failed");
      })
      .post("/dashboard/environment", async ({ request, body }) => {
        const form = formOf(body);
        const { api, session } = await context(request);
        if (!session) return redirect(SIGN_IN);
        const answer = await api({
          method: "POST",
          path: "/dashboard/session/environment",
          body: { environment: form.environment },
          csrf: form.csrf ?? "",
        });
        if (answer.status !== 200) return refused(answer.status, answer.body?.error ?? "The environment could not be switched", session);
        return redirect(safeReturn(form.back));
      })
      .get("/dashboard/api-keys", async ({ request }) => {
        const { api, session } = await context(request);
        return session ? keysPage(api, session) : redirect(SIGN_IN);
      })
      .post("/dashboard/api-keys", async ({ request, body }) => {
        const form = formOf(body);
        const { api, session } = await context(request);
        if (!session) return redirect(SIGN_IN);
        const input = { name: form.name ?? "", type: form.type ?? "", description: given(form.description) };
        const answer = await api({
          method: "POST",
          path: "/dashboard/api-keys",
          body: input,
          csrf: form.csrf ?? "",
          idempotencyKey: given(form.idempotencyKey),
        });
        if (answer.status === 201) return keysPage(api, session, { created: answer.body.data }, 201);
        if (answer.status === 403) return refused(403, answer.body?.error ?? "Refused", session);
        const { form: error, fields } = fieldErrors(answer);
        return keysPage(api, session, { form: { values: form as Record<string, string>, error, fields } }, answer.status);
      })
      .get("/dashboard/api-keys/:id/revoke", async ({ request, params }) => {
        const { api, session } = await context(request);
        if (!session) return redirect(SIGN_IN);
        const list = await api({ method: "GET", path: "/dashboard/api-keys" });
        const key = (list.body?.data as ApiKeyView[] | undefined)?.find((k) => k.id === params.id);
        if (!key) return refused(404, "No such key in this environment", session);
        return page(<RevokePage session={session} apiKey={key} />);
      })
      .post("/dashboard/api-keys/:id/revoke", async ({ request, params, body }) => {
        const { api, session } = await context(request);
        if (!session) return redirect(SIGN_IN);
        const answer = await api({ method: "DELETE", path: `/dashboard/api-keys/${encodeURIComponent(params.id)}`, csrf: formOf(body).csrf ?? "" });
        if (answer.status !== 200) return refused(answer.status, answer.body?.error ?? "The key could not be revoked", session);
        return redirect("/dashboard/api-keys");
      })
      .get("/dashboard/features", async ({ request, query }) => {
        const { api, session } = await context(request);
        return session ? featuresPage(api, session, query.cursor) : redirect(SIGN_IN);
      })
      .post("/dashboard/features", async ({ request, body }) => {
        const form = formOf(body);
        const { api, session } = await context(request);
        if (!session) return redirect(SIGN_IN);
        const input = {
          name: form.name ?? "",
          featureKey: form.featureKey ?? "",
          featureType: form.featureType ?? "",
          eventKey: given(form.eventKey),
          description: given(form.description),
        };
        const answer = await api({
          method: "POST",
          path: "/dashboard/features",
          body: input,
          csrf: form.csrf ?? "",
          idempotencyKey: given(form.idempotencyKey),
        });
        if (answer.status === 201) return featuresPage(api, session, undefined, { created: answer.body.data.name }, 201);
        if (answer.status === 403) return refused(403, answer.body?.error ?? "Refused", session);
        const { form: error, fields } = fieldErrors(answer);
        return featuresPage(api, session, undefined, { form: { values: form, error, fields } }, answer.status);
      })
  );
}
