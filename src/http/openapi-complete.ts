/**
 * The generated OpenAPI document, completed in one place from the rules that decide what the service
 * does, instead of on each route:
 * - the statuses every operation can return without its route saying so (src/http/openapi-responses.ts:
 *   413 and 500 everywhere; 401, 403, 415 and 429 from the operation's row of the access matrix,
 *   src/auth/access.ts; 400 wherever parameters or a body are validated), joined with what a route
 *   documents itself;
 * - each operation's `operationId`, its `security` and `x-access` (its row of the route table, src/auth/access.ts);
 * - every state-changing operation takes the shared `Idempotency-Key` header parameter (a component,
 *   referenced) and documents its 409 and 422;
 * - request bodies JSON only (the generator also lists form and multipart; the service refuses those);
 *   responses say integer where Elysia's `t.Integer` documents "an integer, or a string of one" (what a
 *   request may send; the service always writes a number);
 * - named schemas (`components.schemas`, referenced) and an example per operation (src/http/openapi-components.ts);
 * - the error table as `x-error-codes`.
 */
import type { TSchema } from "elysia";
import { ACCESS, ROUTES, type Route, type RouteKey } from "../auth/access";
import { KEYED_METHODS } from "./idempotency/rules";
import { ERRORS } from "../lib/errors";
import { exampleOf, hoistNamed } from "./openapi-components";
import { closedForDocument, type BodySchemaOf } from "./unknown-fields";
import { accessResponses, BODY_MEDIA_TYPE, IDEMPOTENCY, securityOf, UNIVERSAL, VALIDATED, type AccessRow, type Reply } from "./openapi-responses";

type Responses = Record<string, Reply>;
interface Operation {
  operationId?: string;
  security?: unknown[];
  responses?: Responses;
  requestBody?: { content?: Record<string, { schema: unknown; example?: unknown }> };
  parameters?: unknown[];
  "x-access"?: AccessRow;
}
interface Document {
  paths?: Record<string, Record<string, Operation>>;
  components?: { parameters?: Record<string, unknown>; schemas?: Record<string, unknown> };
  "x-error-codes"?: unknown;
}

const IDEMPOTENCY_KEY_PARAMETER = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes a retry safe: the first response (2xx and 4xx other than 400, 401 and 403) is kept 24 h for this credential and environment and replayed to a retry with the same key, method, path and body, with `Idempotent-Replayed: true`. 1 to 255 printable ASCII characters (else 400); a V4 UUID is a good key.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7e]+$" },
};

const IDEMPOTENCY_KEY_REF = { $ref: "#/components/parameters/IdempotencyKey" };

const json = (value: unknown) => JSON.stringify(value);

/**
 * `shared` where the route documents nothing for the status; else the route's response, joined with it:
 * the route's schema where it already allows the shared shape, else either of them; the headers of both.
 */
function joined(own: Reply | undefined, shared: Reply): Reply {
  if (!own) return shared;
  const ownSchema = own.content?.["application/json"]?.schema;
  const sharedSchema = shared.content["application/json"].schema;
  const allows =
    ownSchema !== undefined && [ownSchema, ...((ownSchema.anyOf as TSchema[] | undefined) ?? [])].some((s) => json(s) === json(sharedSchema));
  const schema = ownSchema === undefined ? sharedSchema : allows ? ownSchema : { anyOf: [ownSchema, sharedSchema] };
  // The generator's placeholder ("Response for status 422") says nothing worth keeping.
  const description = /^Response for status \d+$/.test(own.description) ? shared.description : `${own.description}. Or: ${shared.description}`;
  // The route's own headers (an x402 settlement on a 429) stay beside the shared ones (the rate limit's).
  const headers = own.headers || shared.headers ? { headers: { ...own.headers, ...shared.headers } } : {};
  return { ...shared, ...headers, description, content: { "application/json": { schema: schema as TSchema } } };
}

/** The generator may hand over the same document object again; it is completed once. */
const completed = new WeakSet<object>();

export function completeDocument(doc: object, prefix: string, bodyOf: BodySchemaOf): void {
  if (completed.has(doc)) return;
  completed.add(doc);
  const components = ((doc as Document).components ??= {});
  (components.parameters ??= {}).IdempotencyKey = IDEMPOTENCY_KEY_PARAMETER;
  // Resources and error shapes, by the names their models give them (src/http/openapi-components.ts).
  const named = (components.schemas ??= {});
  // The one error table (src/lib/errors.ts): every code with its status and body shape.
  (doc as Document)["x-error-codes"] = Object.entries(ERRORS).map(([code, { status, shape, description }]) => ({ code, status, shape, description }));
  for (const [path, operations] of Object.entries((doc as Document).paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const route = `${method.toUpperCase()} ${path.slice(prefix.length)}`;
      const row: AccessRow | undefined = ACCESS[route as RouteKey];
      operation.operationId = ROUTES[route as Route]?.operationId ?? operation.operationId;
      operation.security = securityOf(row);
      if (row) operation["x-access"] = row;
      // A copy: the generator hands over some routes' own `detail.responses`, which must stay as they are.
      const responses: Responses = (operation.responses = { ...operation.responses });
      const add = (shared: Responses) => {
        for (const [status, response] of Object.entries(shared)) responses[status] = joined(responses[status], response);
      };
      add(UNIVERSAL);
      if (row) {
        add(accessResponses(row, method.toUpperCase()));
        if (KEYED_METHODS.has(method.toUpperCase())) {
          operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY_REF];
          add(IDEMPOTENCY);
        }
      }
      // The generator lists no media type for a body read by a function parser (src/http/json-body.ts).
      if (operation.requestBody && !Object.keys(operation.requestBody.content ?? {}).length) {
        const schema = bodyOf(method.toUpperCase(), path.replace(/\{(\w+)\}/g, ":$1"));
        if (schema) operation.requestBody.content = { "application/json": { schema } };
      }
      // The generator also lists form and multipart bodies; the service refuses those (415).
      const body = operation.requestBody?.content?.["application/json"];
      if (body) operation.requestBody!.content = { "application/json": body };
      if (operation.parameters?.length || operation.requestBody) add(VALIDATED);
      // Every route that reads a body reads JSON only, public ones too (the access macro, or their own check).
      if (operation.requestBody) add(BODY_MEDIA_TYPE);
      for (const [status, response] of Object.entries(responses)) {
        const content = response.content?.["application/json"];
        if (!content) continue;
        const schema = hoistNamed(nullInEnums(integersOnly(content.schema)), named) as TSchema;
        const example = status.startsWith("2") ? { example: exampleOf(schema, named) } : {};
        responses[status] = { ...response, content: { ...response.content, "application/json": { ...content, schema, ...example } } };
      }
      if (body) {
        // Unknown fields are refused (unknown-fields.ts): the request schemas say which objects are closed.
        const schema = hoistNamed(nullInEnums(closedForDocument(body.schema) as TSchema), named);
        operation.requestBody!.content = { "application/json": { ...body, schema, example: exampleOf(schema, named) } };
      }
    }
  }
}

/** `{anyOf: [string of an integer, integer]}` → the integer, throughout a copy of `schema` (never the route's own objects). */
function integersOnly(schema: TSchema): TSchema {
  if (Array.isArray(schema)) return schema.map(integersOnly) as never;
  if (!schema || typeof schema !== "object") return schema;
  const branches = schema.anyOf as TSchema[] | undefined;
  if (branches?.length === 2 && branches[0]!.type === "string" && branches[0]!.format === "integer" && branches[1]!.type === "integer") {
    const { anyOf: _, ...outer } = schema;
    return { ...outer, ...branches[1] } as TSchema;
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, integersOnly(value)])) as TSchema;
}

/**
 * A nullable enum the generator wrote as `{type: ["string", "null"], enum: [...]}` without null among the
 * values (it flattens `t.Union([t.Union([literals]), t.Null()])` so), which no null then matches: null added to
 * the enum, throughout a copy of `schema`.
 */
function nullInEnums(schema: TSchema): TSchema {
  if (Array.isArray(schema)) return schema.map(nullInEnums) as never;
  if (!schema || typeof schema !== "object") return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, key === "enum" ? value : nullInEnums(value)])) as TSchema;
  const nullable = Array.isArray(schema.type) && schema.type.includes("null");
  if (nullable && Array.isArray(schema.enum) && !schema.enum.includes(null)) copy.enum = [...schema.enum, null];
  return copy;
}
