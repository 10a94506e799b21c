/**
 * API keys, from the dashboard as the spec says (rule 2: created and revoked only in the dashboard), in the
 * session's active environment: list (keys:read), create and revoke (keys:write). The raw key is in the
 * create response only; a retry under the same Idempotency-Key gets that response again (kept sealed, as
 * the token routes' are: src/http/idempotency/sealed-body.ts).
 */
import { Elysia, t } from "elysia";
import { KEY_TYPE_BY_KIND } from "../../../auth/kinds";
import { authPlugin } from "../../../http/auth";
import { requestState } from "../../../http/request-context";
import { apiError } from "../../../lib/errors";
import { actorOf } from "../../audit/repo";
import { createKey, listKeys, revokeKey } from "../../teams/keys";
import type { DashboardDeps } from "../sessions/routes";
import { ApiKey, ApiKeyCreate, CreatedApiKey, IdParams } from "../schemas";
import { data } from "../../../http/envelope";
import { errorResponses } from "../../../http/error-schemas";

const TAGS = ["Dashboard"];

function expiry(value: string | undefined): Date | null {
  if (value === undefined) return null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw apiError("validation_failed", "Invalid expiry", { "body.expiresAt": "An ISO 8601 date-time" });
  return d;
}

export function keyRoutes(deps: DashboardDeps) {
  return new Elysia()
    .use(authPlugin(deps))
    .get("/dashboard/api-keys", async ({ principal }) => ({ data: await listKeys(deps.sql, principal.teamId, principal.environment) }), {
      access: true,
      response: { 200: data(t.Array(ApiKey)) },
      detail: {
        tags: TAGS,
        summary: "List the API keys of the session's environment, never their raw values (dashboard session only, role keys:read)",
      },
    })
    .post(
      "/dashboard/api-keys",
      async ({ principal, body, request, set }) => {
        const input = {
          teamId: principal.teamId,
          environment: principal.environment,
          type: KEY_TYPE_BY_KIND[body.type],
          name: body.name,
          description: body.description ?? null,
          permissions: body.permissions,
          expiresAt: expiry(body.expiresAt),
        };
        const created = await createKey(deps.sql, input, deps.clock.now(), actorOf(principal, requestState(request).requestId));
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return { data: created };
      },
      {
        access: true,
        body: ApiKeyCreate,
        response: { 201: data(CreatedApiKey) },
        detail: {
          tags: TAGS,
          summary: "Create an API key in the session's environment; the raw key is shown once, here (dashboard session only, role keys:write)",
          description:
            "`sk_`/`rk_`/`pk_` keys carry `live` or `test` by the environment; only the key's SHA-256 and first 16 characters are stored. Permissions, optional expiry, name and description are chosen here and never change.",
        },
      },
    )
    .delete(
      "/dashboard/api-keys/:id",
      async ({ principal, params, request }) => {
        const key = await revokeKey(deps.sql, principal, params.id, actorOf(principal, requestState(request).requestId));
        deps.credentials.evict(key.id);
        return { data: key };
      },
      {
        access: true,
        params: IdParams,
        response: { 200: data(ApiKey), ...errorResponses("not_found") },
        detail: {
          tags: TAGS,
          summary: "Revoke an API key: it stops authenticating on every instance at once (dashboard session only, role keys:write)",
          description: "Idempotent: revoking a revoked key answers it with its first revokedAt. 404 for a key of another team or environment.",
        },
      },
    );
}
