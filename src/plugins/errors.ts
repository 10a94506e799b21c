/**
 * Maps every failure to the spec's shapes (see src/lib/errors.ts). Validation failures list field paths
 * such as `body.company.email` or `query.limit`. Unique violations become 409. Anything unexpected is a
 * 500 `{error}` that reveals nothing, logged with its request id.
 */
import { Elysia, ValidationError } from "elysia";
import { ApiError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { requestState } from "./request-context";

/** An error response in the spec's shapes, with the request's id: the only way errors are written. */
export function errorResponse(status: number, body: unknown, requestId: string): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-request-id": requestId },
  });
}

interface NumberSchema {
  "x-field"?: string;
  "x-expected"?: string;
  type?: string;
  minimum?: number;
  maximum?: number;
  anyOf?: NumberSchema[];
}

/**
 * Elysia wraps numeric fields in a union (number or numeric string), whose stock message is
 * "Expected union value"; say what is actually expected instead.
 */
function numericExpectation(schema: NumberSchema | undefined): string | undefined {
  const s = schema?.anyOf?.find((x) => x.type === "integer" || x.type === "number") ?? schema;
  if (!s || (s.type !== "integer" && s.type !== "number")) return undefined;
  const what = s.type === "integer" ? "an integer" : "a number";
  if (s.minimum !== undefined && s.maximum !== undefined) return `Expected ${what} from ${s.minimum} to ${s.maximum}`;
  if (s.minimum !== undefined) return `Expected ${what} of at least ${s.minimum}`;
  if (s.maximum !== undefined) return `Expected ${what} of at most ${s.maximum}`;
  return `Expected ${what}`;
}

function validationDetails(error: ValidationError): Record<string, string> {
  const details: Record<string, string> = {};
  for (const issue of error.all) {
    const schema = "schema" in issue ? (issue.schema as NumberSchema) : undefined;
    const where = error.type === "params" ? "path" : error.type;
    const field = "path" in issue && issue.path ? issue.path.replace(/^\//, "").replaceAll("/", ".") : "";
    // Elysia checks coerced query numbers one property at a time and loses the name ("property"
    // errors); such schemas carry their own name in `x-field` (see queryInteger).
    const key = error.type === "property" ? (schema?.["x-field"] ?? "query") : field ? `${where}.${field}` : where;
    details[key] ??= schema?.["x-expected"] ?? numericExpectation(schema) ?? ("message" in issue && issue.message ? issue.message : "Invalid value");
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
  return errorResponse(500, { error: "Internal server error" }, requestId);
}

export function errorHandler(deps: { logger: Logger }) {
  return new Elysia()
    .onError(({ code, error, request, set }) => {
      const { requestId } = requestState(request);
      if (error instanceof ApiError) {
        set.status = error.status;
        return errorResponse(error.status, error.body(), requestId);
      }
      const responseInvalid = code === "VALIDATION" && (error as ValidationError).type === "response";
      switch (responseInvalid ? "INTERNAL" : code) {
        case "VALIDATION":
          set.status = 400;
          return errorResponse(400, { error: "Validation failed", details: validationDetails(error as ValidationError) }, requestId);
        case "PARSE":
          set.status = 400;
          return errorResponse(400, { error: "Malformed request body", details: { body: "Expected a valid JSON document" } }, requestId);
        case "NOT_FOUND":
          set.status = 404;
          return errorResponse(404, { error: "Not found" }, requestId);
      }
      if (isUniqueViolation(error)) {
        set.status = 409;
        return errorResponse(409, { error: "A resource with the same unique value already exists" }, requestId);
      }
      set.status = 500;
      return unexpectedErrorResponse(deps.logger, error, requestId, String(code));
    })
    .as("global");
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "23505";
}
