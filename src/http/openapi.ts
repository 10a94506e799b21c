/**
 * OpenAPI response objects for a route's `detail.responses`. Hot routes (the entitlement checks and
 * the metered writes) document their reply schemas this way instead of in Elysia's `response` hook:
 * the hook checks, cleans and encodes every reply against the schema, which cost more than the whole
 * rest of a cached /check. Their replies are built by typed functions whose types come from these same
 * schemas, and test/api/hot-path-schemas.test.ts checks each reply against them.
 * Shaped as @elysiajs/openapi shapes the `response` hook, so the document reads the same either way.
 */
import type { TSchema } from "elysia";

export function documentedResponses(schemas: Record<number, TSchema>) {
  const out: Record<string, { description: string; content: { "application/json": { schema: TSchema } } }> = {};
  for (const [status, schema] of Object.entries(schemas)) {
    out[status] = { description: schema.description ?? `Response for status ${status}`, content: { "application/json": { schema } } };
  }
  return out;
}
