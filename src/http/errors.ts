/**
 * Maps every failure to a code of the one table (src/lib/errors.ts), which gives its status and shape.
 * Validation failures list field paths such as `body.company.email`, `body.lineItems[0].quantity` or `query.limit`
 * (src/lib/field-path.ts), each with what was expected (schema-errors.ts). Unique violations
 * become 409; a database that cannot be reached (a restart, a failover) is a 503 with Retry-After, answered
 * while the pool reconnects on its own. Anything unexpected is a 500 `{error}` that reveals nothing, logged
 * with its request id, its class and message, never a body (logged-error.ts).
 */
import { Elysia, ValidationError } from "elysia";
import { ApiError, apiError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { requestState } from "./request-context";
import { fieldPath } from "../lib/field-path";
import { expectedOf, type DescribedSchema } from "./schema-errors";
import { notFoundParameter } from "./resource-id";
import { loggedError } from "./logged-error";
import { isDatabaseUnavailable } from "../db/unavailable";

/** Seconds a client waits before retrying while the database is away: a restart takes a second or two. */
const DATABASE_RETRY_AFTER_SECONDS = "2";

/** An error response in its code's status and shape, with the request's id: the only way errors are written. */
export function errorResponse(error: ApiError, requestId: string): Response {
  return new Response(JSON.stringify(error.body()), {
    status: error.status,
    headers: { ...error.headers, "content-type": "application/json", "x-request-id": requestId },
  });
}

/** What the route's schemas found wrong, with the body fields they do not know (unknown-fields.ts), in one 400. */
function validationDetails(error: ValidationError, request: Request): Record<string, string> {
  const details: Record<string, string> = { ...requestState(request).unknownFields };
  for (const issue of error.all) {
    const schema = "schema" in issue ? (issue.schema as DescribedSchema) : undefined;
    const where = error.type === "params" ? "path" : error.type;
    // Elysia checks coerced query numbers one property at a time and loses the name ("property"
    // errors); such schemas carry their own name in `x-field` (see queryInteger).
    const key =
      error.type === "property" ? (schema?.["x-field"] ?? "query") : fieldPath(where, "path" in issue && issue.path ? issue.path : "", error.value);
    details[key] ??= expectedOf(schema, "message" in issue ? issue.message : undefined);
  }
  return details;
}

/** A 500 that reveals nothing to the caller; the error is logged with the request's id. */
export function unexpectedErrorResponse(logger: Logger, error: unknown, requestId: string, code = "UNKNOWN"): Response {
  logger.error("unhandled error", { requestId, code, error: loggedError(error) });
  return errorResponse(apiError("internal_error", "Internal server error"), requestId);
}

/**
 * A failure no route handles, as an answer: a known code as itself, the database being away as 503
 * (logged as a warning, once per request), anything else as a logged 500.
 */
export function failureResponse(logger: Logger, error: unknown, request: Request, code = "UNKNOWN"): Response {
  const { requestId } = requestState(request);
  const known = error instanceof ApiError ? error : asApiError(code, error, request);
  if (!known) return unexpectedErrorResponse(logger, error, requestId, code);
  if (known.code === "database_unavailable") logger.warn("database unavailable", { requestId, error: loggedError(error).message });
  return errorResponse(known, requestId);
}

export function errorHandler(deps: { logger: Logger }) {
  return new Elysia()
    .onError(({ code, error, request, set }) => {
      const response = failureResponse(deps.logger, error, request, String(code));
      set.status = response.status;
      return response;
    })
    .as("global");
}

/** A body that is not a JSON document (not UTF-8, or not JSON's syntax). */
export const malformedJson = () => apiError("malformed_json", "Malformed request body", { body: "Expected a valid JSON document" });

/** Elysia's own failures and PostgreSQL's unique violation as codes of the table; null when unexpected. */
function asApiError(code: unknown, error: unknown, request: Request): ApiError | null {
  if (code === "VALIDATION" && (error as ValidationError).type !== "response") {
    const invalid = error as ValidationError;
    return notFoundParameter(invalid) ?? apiError("validation_failed", "Validation failed", validationDetails(invalid, request));
  }
  // Elysia wraps what the body parser throws (src/http/json-body.ts) in its ParseError: a refusal of ours is kept.
  if (code === "PARSE") return (error as Error).cause instanceof ApiError ? ((error as Error).cause as ApiError) : malformedJson();
  if (code === "NOT_FOUND") return apiError("not_found", "Not found");
  if (isUniqueViolation(error)) return apiError("conflict", "A resource with the same unique value already exists");
  if (isDatabaseUnavailable(error))
    return apiError("database_unavailable", "The database is unavailable; retry shortly", {}, { "retry-after": DATABASE_RETRY_AFTER_SECONDS });
  return null;
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "23505";
}
