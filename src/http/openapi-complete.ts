/**
 * The responses every route shares, added to the generated OpenAPI document in one place instead of
 * on each route: 401 and 403 on every authenticated operation (the access matrix, src/auth/access.ts),
 * 429 on the rate-limited ones (with Retry-After and the RateLimit-* headers), 400 wherever parameters or a body are validated, and 413 and 415
 * wherever a body is read. Routes document only what is their own. The generator also lists form and
 * multipart bodies for every JSON body; the service refuses those (415), so only JSON stays. A status
 * a route documents itself is kept as it is. And Elysia's `t.Integer` documents "an integer, or a
 * string of one" (what it accepts in a request); in a response the service always writes a number, so
 * responses say integer only. Every state-changing operation takes the shared `Idempotency-Key` header
 * parameter (a component, referenced) and documents its 409 and 422; where the route documents that status
 * itself, the two descriptions and shapes are joined. The document also lists the error table as `x-error-codes`.
 */
import type { TSchema } from "elysia";
import { ACCESS, type AccessPolicy, type RouteKey } from "../auth/access";
import { CodedErrorBody, ErrorBody, ValidationErrorBody } from "./error-schemas";
import { ERRORS } from "../lib/errors";

type Responses = Record<string, { description: string; content: { "application/json": { schema: TSchema } }; headers?: object }>;
interface Operation {
  responses?: Responses;
  requestBody?: { content?: Record<string, unknown> };
  parameters?: unknown[];
}
interface Document {
  paths?: Record<string, Record<string, Operation>>;
  components?: { parameters?: Record<string, unknown> };
  "x-error-codes"?: unknown;
}

const reply = (description: string, schema: TSchema) => ({ description, content: { "application/json": { schema } } });

const SHARED = {
  400: reply("Invalid input: details maps each field path to what is wrong", ValidationErrorBody),
  401: reply("Missing, invalid, expired or revoked credentials", CodedErrorBody),
  403: reply("A valid credential of the wrong kind, or without the route's permission or role", CodedErrorBody),
  413: reply("The body exceeds BODY_LIMIT_BYTES", ErrorBody),
  415: reply("The body is not application/json", ErrorBody),
  429: {
    ...reply("Rate limit exceeded (code rate_limited): 500 requests per credential per sliding 60 s", ErrorBody),
    headers: {
      "Retry-After": { description: "Whole seconds until the window admits the next request", schema: { type: "integer" } },
      "RateLimit-Limit": { description: "Requests the window admits (500)", schema: { type: "integer" } },
      "RateLimit-Remaining": { description: "Requests the window still admits now (0 here)", schema: { type: "integer" } },
      "RateLimit-Reset": { description: "Whole seconds until the oldest counted request leaves the window", schema: { type: "integer" } },
    },
  },
};

const KEYED_OPERATIONS = new Set(["post", "put", "patch", "delete"]);

const IDEMPOTENCY_KEY_PARAMETER = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes a retry safe: the first response (2xx and 4xx other than 400, 401 and 403) is kept 24 h for this credential and environment and replayed to a retry with the same key, method, path and body, with `Idempotent-Replayed: true`. 1 to 255 printable ASCII characters (else 400); a V4 UUID is a good key.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7e]+$" },
};

const IDEMPOTENCY_KEY_REF = { $ref: "#/components/parameters/IdempotencyKey" };

const IDEMPOTENCY = {
  409: reply("Idempotency-Key: a request with this key is still in progress (code idempotency_key_in_use); retry later", CodedErrorBody),
  422: reply("Idempotency-Key: the key was already used for a different method, path or body (code idempotency_key_reused)", CodedErrorBody),
};

/** `shared` where the route documents nothing for the status; else the route's response, joined with it. */
function joined(own: Responses[string] | undefined, shared: Responses[string]): Responses[string] {
  if (!own) return shared;
  const ownSchema = own.content?.["application/json"]?.schema;
  const sharedSchema = shared.content["application/json"].schema;
  const schema = ownSchema === undefined || JSON.stringify(ownSchema) === JSON.stringify(sharedSchema) ? sharedSchema : { anyOf: [ownSchema, sharedSchema] };
  // The generator's placeholder ("Response for status 422") says nothing worth keeping.
  const description = /^Response for status \d+$/.test(own.description) ? shared.description : `${own.description}. Or: ${shared.description}`;
  return { description, content: { "application/json": { schema: schema as TSchema } } };
}

/** A route's body schema by method and Elysia path (`/api/v1/companies/:id`). */
export type BodySchemaOf = (method: string, path: string) => TSchema | undefined;

export function completeDocument(doc: object, prefix: string, bodyOf: BodySchemaOf): void {
  const components = ((doc as Document).components ??= {});
  (components.parameters ??= {}).IdempotencyKey = IDEMPOTENCY_KEY_PARAMETER;
  // The one error table (src/lib/errors.ts): every code with its status and body shape.
  (doc as Document)["x-error-codes"] = Object.entries(ERRORS).map(([code, { status, shape, description }]) => ({ code, status, shape, description }));
  for (const [path, operations] of Object.entries((doc as Document).paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const policy: AccessPolicy | undefined = ACCESS[`${method.toUpperCase()} ${path.slice(prefix.length)}` as RouteKey];
      // A copy: the generator hands over some routes' own `detail.responses`, which must stay as they are.
      const responses: Responses = (operation.responses = { ...operation.responses });
      const add = (status: keyof typeof SHARED) => (responses[status] ??= SHARED[status]);
      if (policy) {
        add(401);
        add(403);
        if (policy.rateLimited) add(429);
        // Once: the generator may hand over the same document again.
        if (KEYED_OPERATIONS.has(method) && !operation.parameters?.includes(IDEMPOTENCY_KEY_REF)) {
          operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY_REF];
          responses[409] = joined(responses[409], IDEMPOTENCY[409]);
          responses[422] = joined(responses[422], IDEMPOTENCY[422]);
        }
      }
      for (const [status, response] of Object.entries(responses)) {
        const content = response.content?.["application/json"];
        if (content) responses[status] = { ...response, content: { ...response.content, "application/json": { ...content, schema: integersOnly(content.schema) } } };
      }
      if (operation.parameters?.length || operation.requestBody) add(400);
      // The generator lists no media type for a body read by a function parser (src/http/json-body.ts).
      if (operation.requestBody && !Object.keys(operation.requestBody.content ?? {}).length) {
        const schema = bodyOf(method.toUpperCase(), path.replace(/\{(\w+)\}/g, ":$1"));
        if (schema) operation.requestBody.content = { "application/json": { schema } };
      }
      const json = operation.requestBody?.content?.["application/json"];
      if (json) {
        operation.requestBody!.content = { "application/json": json };
        add(413);
        add(415);
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
