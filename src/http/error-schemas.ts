/**
 * The spec's three error shapes (src/lib/errors.ts) as schemas, for the routes' `response` hooks and
 * their OpenAPI documents: one definition, so every route documents the same shapes. The `code` enum is
 * derived from the one error table: exactly the codes whose shape carries `code`. Named (`$id`) for the
 * OpenAPI document's components: Error, CodedError, ValidationError.
 */
import { t } from "elysia";
import { CODED_ERROR_CODES, type CodedErrorCode } from "../lib/errors";

export const ErrorBody = t.Object({ error: t.String() }, { $id: "Error", examples: [{ error: "Not found" }] });
export const CodedErrorBody = t.Object(
  {
    error: t.String(),
    code: t.UnionEnum(CODED_ERROR_CODES as [CodedErrorCode, ...CodedErrorCode[]], {
      description: "One of the codes whose body carries `code` (the table in x-error-codes)",
    }),
  },
  { $id: "CodedError", examples: [{ error: "Limit reached", code: "limit_reached" }] },
);
export const ValidationErrorBody = t.Object(
  {
    error: t.String(),
    details: t.Record(t.String(), t.String(), { description: "Field path (such as body.company.email or query.limit) -> what is wrong" }),
  },
  { $id: "ValidationError", examples: [{ error: "Validation failed", details: { "query.limit": "Expected integer to be less or equal to 200" } }] },
);
