/**
 * The `access` macro: a route declares `{ access: "GET /companies" }` and receives `principal`.
 * The policy comes from the one matrix in src/auth/access.ts.
 */
import { Elysia } from "elysia";
import { ACCESS, authorize, type RouteKey } from "../auth/access";
import { resolvePrincipal, type ResolveDeps } from "../auth/resolve";
import { requestState } from "./request-context";

export function authPlugin(deps: ResolveDeps) {
  return new Elysia().macro({
    access: (route: RouteKey) => ({
      async resolve({ request }) {
        const principal = await resolvePrincipal(deps, request.headers);
        requestState(request).principal = principal;
        authorize(ACCESS[route], principal);
        if (principal.kind !== "dashboard" && principal.kind !== "embed") deps.credentials.markUsed(principal.credentialId);
        return { principal };
      },
    }),
  });
}
