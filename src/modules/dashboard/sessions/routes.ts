/**
 * Signing in and out, and the session itself. The three sign-in routes are public (no credential): each
 * sets the be_session cookie and returns the session with its CSRF token, once. They read JSON only (415
 * otherwise), so a cross-site form cannot sign a browser into someone else's account: a cross-site JSON
 * request needs a CORS preflight, which this service never grants.
 */
import type { OriginConfig } from "../../../http/public-origin";
import { Elysia } from "elysia";
import type { Sql } from "../../../db/client";
import { authPlugin, type AuthDeps } from "../../../http/auth";
import { assertJsonBody } from "../../../http/json-body";
import { clientAddress } from "../../../http/client-address";
import { requestState } from "../../../http/request-context";
import { actorOf } from "../../audit/repo";
import { acceptInvitation } from "../../teams/invitations";
import { describeSession, signOut, switchEnvironment } from "../../teams/sessions";
import { signInWithLink, signInWithPassword, type SignedIn, type SignInSettings } from "../../teams/sign-in";
import { clearedCookie, sessionCookie } from "../../../auth/session-cookie";
import { csrfTokenFor } from "../../../auth/csrf";
import { presentedCredential } from "../../../auth/resolve";
import { AcceptRequest, DashboardSession, EnvironmentRequest, LinkSignInRequest, Ok, SignedInSession, SignInRequest } from "../schemas";
import { data } from "../../../http/envelope";
import { errorResponses } from "../../../http/error-schemas";
import { ERRORS } from "../../../lib/errors";
import { ACCOUNT_FAILURE_LIMIT, ADDRESS_FAILURE_LIMIT, SIGN_IN_WINDOW_MS } from "../../teams/throttle";

export type DashboardDeps = AuthDeps & {
  sql: Sql;
  config: OriginConfig & { dashboardCookieSecure: boolean; dashboardSessionTtlMs: number; passwordHashMemoryKib: number };
};

const TAGS = ["Dashboard"];
const SIGN_IN_ERRORS =
  `Errors: ${ERRORS.sign_in_failed.status} \`sign_in_failed\` (the same answer, after the same work, for an unknown email and a wrong password); ` +
  `${ERRORS.sign_in_throttled.status} \`sign_in_throttled\` with Retry-After after ${ACCOUNT_FAILURE_LIMIT} failures for the account or ${ADDRESS_FAILURE_LIMIT} ` +
  `for the client address in ${SIGN_IN_WINDOW_MS / 60_000} minutes.`;

type SetHeaders = { headers: Record<string, unknown>; status?: unknown };

export function sessionRoutes(deps: DashboardDeps) {
  const settings = (request: Request): SignInSettings => ({
    now: deps.clock.now(),
    sessionTtlMs: deps.config.dashboardSessionTtlMs,
    requestId: requestState(request).requestId,
    passwordHashMemoryKib: deps.config.passwordHashMemoryKib,
  });
  const signedIn = (set: SetHeaders, result: SignedIn) => {
    const maxAge = (result.session.expiresAt.getTime() - deps.clock.now()) / 1000;
    set.headers["set-cookie"] = sessionCookie(result.session.token, maxAge, deps.config.dashboardCookieSecure);
    set.headers["cache-control"] = "no-store";
    return { data: result.view };
  };
  const jsonOnly = ({ request }: { request: Request }) => assertJsonBody(request);

  return new Elysia()
    .post(
      "/dashboard/sign-in",
      async ({ body, request, set }) =>
        signedIn(set, await signInWithPassword(deps.sql, body, clientAddress(deps.config, request), settings(request))),
      {
        transform: jsonOnly,
        body: SignInRequest,
        response: { 200: data(SignedInSession), ...errorResponses("sign_in_failed", "not_found", "sign_in_throttled") },
        detail: {
          tags: TAGS,
          summary: "Sign in with email and password (dashboard session only; public)",
          description: `Sets the \`__Host-be_session\` cookie (\`be_session\` with DASHBOARD_COOKIE_SECURE=false; HttpOnly, SameSite=Strict, Path=/, Max-Age = the session's lifetime, 12 h by default; Secure unless DASHBOARD_COOKIE_SECURE=false) and returns the session with its \`csrfToken\` (GET /dashboard/session repeats it): send it as \`X-CSRF-Token\` on every write authenticated by the cookie. Without \`teamId\`, the operator's oldest membership; the session starts in the development environment. ${SIGN_IN_ERRORS}`,
        },
      },
    )
    .post("/dashboard/sign-in/link", async ({ body, request, set }) => signedIn(set, await signInWithLink(deps.sql, body.token, settings(request))), {
      transform: jsonOnly,
      body: LinkSignInRequest,
      response: { 200: data(SignedInSession), ...errorResponses("sign_in_failed") },
      detail: {
        tags: TAGS,
        summary: "Sign in with a one-time link printed by the CLI (dashboard session only; public)",
        description:
          "The token of `sign-in-link` (valid 15 minutes, spent by its first use). As POST /dashboard/sign-in otherwise. Errors: 401 `sign_in_failed` for a token unknown, used or expired, or whose member has been removed.",
      },
    })
    .post(
      "/dashboard/invitations/accept",
      async ({ body, request, set }) => signedIn(set, await acceptInvitation(deps.sql, body, clientAddress(deps.config, request), settings(request))),
      {
        transform: jsonOnly,
        body: AcceptRequest,
        response: { 200: data(SignedInSession), ...errorResponses("invitation_invalid", "sign_in_failed", "conflict", "sign_in_throttled") },
        detail: {
          tags: TAGS,
          summary: "Accept an invitation and sign in (dashboard session only; public)",
          description:
            "Spends the invitation: an email without an account gets one with this name and password (12 to 256 characters); an existing account must give its password (the name is ignored), under the sign-in throttle. The operator joins the team with the invitation's roles and is signed in as by POST /dashboard/sign-in. Errors: 410 `invitation_invalid` (unknown, accepted or expired), 401 `sign_in_failed` (wrong password for an existing account; the invitation stays usable), 409 when already a member, 429 `sign_in_throttled`.",
        },
      },
    )
    .use(authPlugin(deps))
    .post(
      "/dashboard/sign-out",
      async ({ principal, request, set }) => {
        await signOut(deps.sql, principal, actorOf(principal, requestState(request).requestId));
        deps.credentials.evict(principal.credentialId);
        set.headers["set-cookie"] = clearedCookie(deps.config.dashboardCookieSecure);
        return { ok: true as const };
      },
      {
        access: true,
        response: { 200: Ok },
        detail: { tags: TAGS, summary: "Sign out: revoke this session and clear the cookie (dashboard session only)" },
      },
    )
    .get(
      "/dashboard/session",
      async ({ principal, request, set }) => {
        const view = await describeSession(deps.sql, principal.teamId, principal.environment, principal.credentialId);
        set.headers["cache-control"] = "no-store"; // it carries the CSRF token, as sign-in's answer does
        // The auth step has just read this same session token from the request.
        return { data: { ...view, csrfToken: csrfTokenFor(presentedCredential(request.headers)!.raw) } };
      },
      {
        access: true,
        response: { 200: data(SignedInSession) },
        detail: {
          tags: TAGS,
          summary: "The signed-in operator, team, active environment and current roles (dashboard session only)",
          description:
            "Roles are the membership's as they are now. `csrfToken` is the same token sign-in returned (derived from the session token), so a reloaded page or a new tab picks it up here.",
        },
      },
    )
    .post(
      "/dashboard/session/environment",
      async ({ principal, body, request }) => {
        const view = await switchEnvironment(deps.sql, principal, body.environment, actorOf(principal, requestState(request).requestId));
        deps.credentials.evict(principal.credentialId);
        return { data: view };
      },
      {
        access: true,
        body: EnvironmentRequest,
        response: { 200: data(DashboardSession) },
        detail: {
          tags: TAGS,
          summary: "Switch the session's active environment (dashboard session only)",
          description: "Every later request of this session acts in the environment chosen (development or production).",
        },
      },
    );
}
