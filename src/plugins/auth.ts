/**
 * The `access` macro: a route declares `{ access: "GET /companies" }` and receives `principal`.
 * The policy comes from the one matrix in src/auth/access.ts; routes it marks `rateLimited` spend one
 * request of the credential's window (when the deployment has the limiter on) after authorisation.
 */
import { Elysia } from "elysia";
import { ACCESS, authorize, type AccessPolicy, type RouteKey } from "../auth/access";
import type { Principal } from "../auth/kinds";
import { resolvePrincipal, type ResolveDeps } from "../auth/resolve";
import { ApiError } from "../lib/errors";
import { andThen, type MaybePromise } from "../lib/maybe-promise";
import type { RateLimiter } from "../ratelimit/types";
import { requestState } from "./request-context";

export interface AuthDeps extends ResolveDeps {
  rateLimiter: RateLimiter | null;
}

/**
 * Admits a verified principal to a route: authorisation (403), then `spend`. Synchronous unless the
 * shared (Redis) window is in use.
 */
export function admit(deps: AuthDeps, policy: AccessPolicy, principal: Principal): MaybePromise<void> {
  authorize(policy, principal);
  return spend(deps, policy, principal);
}

/**
 * The request of an authorised principal: one request of the credential's rate-limit window where the
 * route is limited (429), then lastUsedAt.
 */
export function spend(deps: AuthDeps, policy: AccessPolicy, principal: Principal): MaybePromise<void> {
  const withinRate = policy.rateLimited && deps.rateLimiter ? deps.rateLimiter.take(principal.credentialId, deps.clock.now()) : true;
  return andThen(withinRate, (ok) => {
    if (!ok) throw new ApiError(429, "Rate limit exceeded");
    if (principal.kind !== "dashboard" && principal.kind !== "embed") deps.credentials.markUsed(principal.credentialId);
  });
}

export function authPlugin(deps: AuthDeps) {
  return new Elysia().macro({
    access: (route: RouteKey) => {
      const policy: AccessPolicy = ACCESS[route];
      return {
        async resolve({ request }) {
          // Awaited only when something had to be loaded: a warm credential costs no extra tick.
          let principal = resolvePrincipal(deps, request.headers);
          if (principal instanceof Promise) principal = await principal;
          requestState(request).principal = principal;
          const admission = admit(deps, policy, principal);
          if (admission instanceof Promise) await admission;
          return { principal };
        },
      };
    },
  });
}
