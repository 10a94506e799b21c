/**
 * The `access` macro: a route declares `{ access: "GET /companies" }` and receives `principal`.
 * The policy comes from the one matrix in src/auth/access.ts; routes it marks `rateLimited` spend one
 * request of the credential's window (when the deployment has the limiter on) after authorisation,
 * before validation.
 */
import { Elysia } from "elysia";
import { ACCESS, authorize, type AccessPolicy, type RouteKey } from "../auth/access";
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

export function authPlugin(deps: AuthDeps) {
  return new Elysia().macro({
    access: (route: RouteKey) => {
      const policy: AccessPolicy = ACCESS[route];
      // Who calls, whether they may call this route, and whether their window has room are settled
      // before the request is validated (spec, Authentication rule 9): a caller without a valid
      // credential for the route gets 401 or 403 and learns nothing of its schema from a 400; a
      // credential past its limit gets 429 for whatever it sends (the limit counts requests, valid or
      // not); then a body that is not JSON is 415. (Only a JSON body that does not parse, is not an
      // object or nests too deep is reported first: Elysia reads the body before any hook of the route runs.)
      return {
        transform({ request, set }: { request: Request; set: { headers: Record<string, unknown> } }): MaybePromise<void> {
          return andThen(resolvePrincipal(deps, request.headers, request.method), (principal) => {
            requestState(request).principal = principal; // logged, refused or not
            authorize(policy, principal);
            return andThen(admit(deps, policy, principal), (headers) => {
              if (headers) Object.assign(set.headers, headers);
              assertJsonBody(request);
            });
          });
        },
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
