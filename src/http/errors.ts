/**
 * Maps every failure to a code of the one table (src/lib/errors.ts), which gives its status and shape.
 * Validation failures list field paths such as `body.company.email`, `body.lineItems[0].quantity` or `query.limit`
 * (src/lib/field-path.ts), each with what was expected (schema-errors.ts). Unique violations
 * become 409. Anything unexpected is a 500 `{error}` that reveals nothing, logged with its request id.
 */
import { Elysia, ValidationError } from "elysia";
import { ApiError, apiError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { requestState } from "./request-context";
import { fieldPath } from "../lib/field-path";
import { expectedOf, type DescribedSchema } from "./schema-errors";
import { notFoundParameter } from "./resource-id";

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
  logger.error("unhandled error", {
    requestId,
    code,
    error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
  });
  return errorResponse(apiError("internal_error", "Internal server error"), requestId);
}

export function errorHandler(deps: { logger: Logger }) {
  return new Elysia()
    .onError(({ code, error, request, set }) => {
      const { requestId } = requestState(request);
      const known = error instanceof ApiError ? error : asApiError(code, error, request);
      if (known) {
        set.status = known.status;
        return errorResponse(known, requestId);
      }
      set.status = 500;
      return unexpectedErrorResponse(deps.logger, error, requestId, String(code));
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
  return null;
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "23505";
}
