/**
 * The `access` macro: a route declares `{ access: true }` and receives `principal`. Its policy is the
 * route's row of the one table in src/auth/access.ts, found by the route's method and path (never
 * written again on the route); routes it marks `rateLimited` spend one request of the credential's
 * window (when the deployment has the limiter on) after authorisation, before validation.
 */
import { Elysia } from "elysia";
import { authorize, policyOf, type AccessPolicy } from "../auth/access";
import type { Principal } from "../auth/kinds";
import { resolvePrincipal, type ResolveDeps } from "../auth/resolve";
import { apiError } from "../lib/errors";
import { andThen, type MaybePromise } from "../lib/maybe-promise";
import { rateLimitHeaders } from "../ratelimit/headers";
import type { RateLimiter } from "../ratelimit/types";
import { assertJsonBody } from "./json-body";
import { requestState } from "./request-context";

export interface AuthDeps extends ResolveDeps {
  rateLimiter: RateLimiter | null;
}

type WindowHeaders = Record<string, string> | undefined;

/**
 * One request of the credential's rate-limit window where the route is limited: the window's headers
 * for the response; past the limit, 429 `rate_limited` with them and Retry-After.
 */
function admit(deps: AuthDeps, policy: AccessPolicy, principal: Principal): MaybePromise<WindowHeaders> {
  const limiter = deps.rateLimiter;
  if (!policy.rateLimited || !limiter) return undefined;
  const now = deps.clock.now();
  return andThen(limiter.take(principal.credentialId, now), (admission) => {
    const headers = rateLimitHeaders(limiter.limit, admission, now);
    if (!admission.admitted) throw apiError("rate_limited", "Rate limit exceeded", undefined, headers);
    return headers;
  });
}

/** A key's lastUsedAt ("last successful authenticated call"): marked once the request is valid. */
export function recordUse(deps: AuthDeps, principal: Principal): void {
  if (principal.kind !== "dashboard" && principal.kind !== "embed") deps.credentials.markUsed(principal.credentialId);
}

/** The transform hooks the `access` macro gave routes: how a built app tells the routes that take a credential. */
const credentialHooks = new WeakSet<object>();

/** Does a mounted route (`app.routes`) declare the `access` macro? */
export function takesCredential(route: { hooks?: { transform?: unknown } }): boolean {
  const hooks = route.hooks?.transform;
  const list: unknown[] = Array.isArray(hooks) ? hooks : hooks ? [hooks] : [];
  return list.some((hook) => credentialHooks.has(typeof hook === "function" ? hook : (hook as { fn: object }).fn));
}

export function authPlugin(deps: AuthDeps) {
  return new Elysia().macro({
    access: (_: true) => {
      // Elysia hands a macro only its value, so the row is looked up on the route's first request (from
      // the route's registered path and the method) and kept: one hook per route. Looked up again only
      // should one hook serve another route or method.
      let policy: AccessPolicy | undefined;
      let policyRoute: string | undefined;
      let policyMethod: string | undefined;
      // Who calls, whether they may call this route, and whether their window has room are settled
      // before the request is validated (spec, Authentication rule 9): a caller without a valid
      // credential for the route gets 401 or 403 and learns nothing of its schema from a 400; a
      // credential past its limit gets 429 for whatever it sends (the limit counts requests, valid or
      // not); then a body that is not JSON is 415. (Only a JSON body that does not parse, is not an
      // object or nests too deep is reported first: Elysia reads the body before any hook of the route runs.)
      const transform = ({
        request,
        set,
        route,
      }: {
        request: Request;
        set: { headers: Record<string, unknown> };
        route: string;
      }): MaybePromise<void> => {
        const method = request.method;
        if (route !== policyRoute || method !== policyMethod) {
          policy = policyOf(method, route);
          policyRoute = route;
          policyMethod = method;
        }
        const row = policy!;
        return andThen(resolvePrincipal(deps, request.headers, method), (principal) => {
          requestState(request).principal = principal; // logged, refused or not
          authorize(row, principal);
          return andThen(admit(deps, row, principal), (headers) => {
            if (headers) Object.assign(set.headers, headers);
            assertJsonBody(request);
          });
        });
      };
      credentialHooks.add(transform);
      return {
        transform,
        // After validation.
        resolve: ({ request }: { request: Request }) => {
          const principal = requestState(request).principal!;
          recordUse(deps, principal);
          return { principal };
        },
      };
    },
  });
}
