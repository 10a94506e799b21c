/**
 * The spec's three error shapes (src/lib/errors.ts) as schemas, for the routes' `response` hooks and
 * their OpenAPI documents: one definition, so every route documents the same shapes.
 */
import { t } from "elysia";
import { ERROR_CODES } from "./errors";

export const ErrorBody = t.Object({ error: t.String() });
export const CodedErrorBody = t.Object({ error: t.String(), code: t.UnionEnum(ERROR_CODES) });
export const ValidationErrorBody = t.Object({ error: t.String(), details: t.Record(t.String(), t.String(), { description: "Field path (such as body.company.email or query.limit) -> what is wrong" }) });
