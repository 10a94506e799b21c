/**
 * The `{data: …}` envelope of the dashboard routes (docs/dashboard-sign-in.md: new routes answer `{data: …}`;
 * lists answer `{data, count, nextCursor}` through src/http/pagination.ts). One helper, so every module's
 * single-object responses are described alike in the OpenAPI document.
 */
import { t, type TSchema } from "elysia";

/** `description`, when given, is the response's description in the OpenAPI document (a route with two success statuses). */
export const data = <S extends TSchema>(schema: S, description?: string) => t.Object({ data: schema }, description ? { description } : {});
