/**
 * The one rule for body fields a route does not know: refused, never ignored. A typo (`planID`,
 * `coupon_code`) silently dropped is a request that did something other than what its sender meant, so
 * every route answers 400 `{error, details}` naming each unknown field (`body.company.nmae`), as Stripe
 * does. docs/api/errors.md#unknown-body-fields and the OpenAPI description say so.
 *
 * Closed or open is read off the route's body schema, nested objects included: an object schema with
 * `properties` is closed unless it says otherwise (`additionalProperties` true or a schema,
 * `patternProperties`); a record (`traits`, `metadata`: free key/value by the spec) is open. A union
 * knows the fields of all its branches.
 *
 * Found in the transform phase, on the body as sent: Elysia's validation then drops unknown fields
 * (`normalize`), so they cannot be found later. Refused after the route's credentials and schemas
 * (request-context.ts, with the other input the route's schema cannot judge) and added to a schema
 * failure's 400 (errors.ts), so one answer names everything wrong; before any handler runs.
 */
import { Elysia, type TSchema } from "elysia";
import { childPath } from "../lib/field-path";
import { requestState } from "./request-context";

type Schema = Record<string, unknown>;

/** A route's body schema by method and Elysia path (`/api/v1/companies/:id`). */
export type BodySchemaOf = (method: string, path: string) => TSchema | undefined;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The branches a value of `schema` may take (a union's, an intersection's parts, or itself). */
const branchesOf = (schema: Schema): Schema[] => {
  const parts = (schema.anyOf ?? schema.oneOf ?? schema.allOf) as Schema[] | undefined;
  return parts ? parts.flatMap(branchesOf) : [schema];
};

/** Whether an object schema takes keys it does not name. */
export const isOpen = (schema: Schema) =>
  schema.additionalProperties === true || isPlainObject(schema.additionalProperties) || isPlainObject(schema.patternProperties);

/** Each field of `value` that no branch of `schema` knows, as `{path: what}`, under `path`. */
export function unknownFields(schema: TSchema | undefined, value: unknown, path: string, out: Record<string, string> = {}): Record<string, string> {
  if (!schema) return out;
  const branches = branchesOf(schema as Schema);
  if (Array.isArray(value)) {
    const items = branches.map((b) => b.items).filter(isPlainObject) as TSchema[];
    if (items.length) value.forEach((item, i) => unknownFields({ anyOf: items } as never, item, childPath(path, value, i), out));
    return out;
  }
  if (!isPlainObject(value)) return out;
  const objects = branches.filter((b) => isPlainObject(b.properties));
  if (!objects.length || objects.some(isOpen)) return out;
  for (const [key, item] of Object.entries(value)) {
    const known = objects.map((b) => (b.properties as Record<string, Schema>)[key]).filter((s) => s !== undefined);
    const at = childPath(path, value, key);
    if (known.length) unknownFields({ anyOf: known } as never, item, at, out);
    else out[at] = `Unknown field: ${fieldList(objects)}`;
  }
  return out;
}

const fieldList = (objects: Schema[]) => {
  const names = [...new Set(objects.flatMap((b) => Object.keys(b.properties as object)))];
  return names.length ? `this object takes ${names.join(", ")}` : "this object takes no fields";
};

/**
 * The rule written into a copy of a request schema for the OpenAPI document: each object schema it treats
 * as closed gets `additionalProperties: false`, so a generated client or validator knows it too.
 */
export function closedForDocument(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closedForDocument);
  if (!isPlainObject(schema)) return schema;
  const copy = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, key === "examples" || key === "example" ? value : closedForDocument(value)]),
  );
  if (isPlainObject(schema.properties) && !isOpen(schema) && schema.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
}

/** Finds the unknown fields of every request's body, against its route's schema, before validation drops them. */
export function unknownBodyFields(bodyOf: BodySchemaOf) {
  return new Elysia({ name: "unknown-body-fields" })
    .onTransform(({ body, request, route }) => {
      if (!isPlainObject(body)) return;
      const found = unknownFields(bodyOf(request.method, route), body, "body");
      if (Object.keys(found).length) requestState(request).unknownFields = found;
    })
    .as("global");
}
