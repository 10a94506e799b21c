/**
 * The spec's three error shapes (src/lib/errors.ts) as schemas, for the routes' `response` hooks and
 * their OpenAPI documents: one definition, so every route documents the same shapes. The `code` enum is
 * derived from the one error table: exactly the codes whose shape carries `code`. Named (`$id`) for the
 * OpenAPI document's components: Error, CodedError, ValidationError.
 *
 * Closed (`additionalProperties: false`): the shapes are exact, so `{error, code}` is not an `Error` and a
 * route whose 404 can carry a code must say so (a generated client gets no `code` to switch on otherwise).
 */
import { t, type TSchema } from "elysia";
import { CODED_ERROR_CODES, ERRORS, type CodedErrorCode, type ErrorCode, type ErrorShape } from "../lib/errors";

export const ErrorBody = t.Object({ error: t.String() }, { $id: "Error", additionalProperties: false, examples: [{ error: "Not found" }] });
export const CodedErrorBody = t.Object(
  {
    error: t.String(),
    code: t.UnionEnum(CODED_ERROR_CODES as [CodedErrorCode, ...CodedErrorCode[]], {
      description: "One of the codes whose body carries `code` (the table in x-error-codes)",
    }),
  },
  { $id: "CodedError", additionalProperties: false, examples: [{ error: "Limit reached", code: "limit_reached" }] },
);
export const ValidationErrorBody = t.Object(
  {
    error: t.String(),
    details: t.Record(t.String(), t.String(), { description: "Field path (such as body.company.email or query.limit) -> what is wrong" }),
  },
  {
    $id: "ValidationError",
    additionalProperties: false,
    examples: [{ error: "Validation failed", details: { "query.limit": "Expected integer to be less or equal to 200" } }],
  },
);

/** Each body shape of the error table as its schema. */
export const ERROR_SHAPES: Record<ErrorShape, TSchema> = { error: ErrorBody, code: CodedErrorBody, details: ValidationErrorBody };

/**
 * A route's error responses from the codes it answers: each code's status and shape come from the one table
 * (src/lib/errors.ts), so a route lists what can go wrong and cannot document a shape its codes do not have.
 * A status whose codes have two shapes (404 `not_found` `{error}` beside `plan_not_found` `{error, code}`)
 * documents either. The statuses every route shares (credentials, body limit, idempotency) are added to the
 * document for all routes (openapi-complete.ts) and need not be listed.
 */
export function errorResponses(...codes: ErrorCode[]): Record<number, TSchema> {
  const shapes = new Map<number, Set<ErrorShape>>();
  for (const code of codes) {
    const { status, shape } = ERRORS[code];
    shapes.set(status, (shapes.get(status) ?? new Set<ErrorShape>()).add(shape));
  }
  const schemaOf = (set: Set<ErrorShape>) => {
    const schemas = [...set].map((shape) => ERROR_SHAPES[shape]);
    return schemas.length === 1 ? schemas[0]! : t.Union(schemas);
  };
  return Object.fromEntries([...shapes].map(([status, set]) => [status, schemaOf(set)]));
}
