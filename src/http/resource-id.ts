/**
 * A path id of a resource whose ids all have one shape (`in_` and base62, src/lib/ids.ts). An id of any other
 * shape names nothing, so it is answered as an unknown id is, 404 `{error}`, not a 400: the spec gives such
 * routes 401, 403 and 404 only. The schema answers it (after the credential, before the handler), so an id
 * holding a NUL or a byte that is not UTF-8 never reaches PostgreSQL, and the 404 costs no query.
 */
import { t, ValidationError } from "elysia";
import { apiError, type ApiError } from "../lib/errors";

const NOT_FOUND = "x-not-found";

/** The `id` path parameter of a resource whose ids are `<prefix>_` and 1 to 61 base62 characters (64 in all). */
export function ResourceIdParams(prefix: string, notFound: string) {
  return t.Object({
    id: t.String({
      pattern: `^${prefix}_[0-9A-Za-z]{1,61}$`,
      description: `${prefix}_…; an id of another shape is answered 404, as an unknown one`,
      [NOT_FOUND]: notFound,
    }),
  });
}

/** The 404 of a path parameter that failed its ResourceIdParams shape, or null (errors.ts). */
export function notFoundParameter(error: ValidationError): ApiError | null {
  if (error.type !== "params") return null;
  for (const issue of error.all) {
    const message = "schema" in issue ? (issue.schema as { [NOT_FOUND]?: string })[NOT_FOUND] : undefined;
    if (message) return apiError("not_found", message);
  }
  return null;
}
