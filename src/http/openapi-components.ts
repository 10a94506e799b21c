/**
 * Named schemas and examples for the OpenAPI document (completeDocument runs both on it).
 *
 * A schema that carries an `$id` (the resources and error shapes: `t.Object({...}, { $id: "Company" })`
 * in their model files) is hoisted into `components.schemas` under that name and referenced with
 * `$ref` wherever it appears, so clients generated from the document get one named type per resource.
 * The `$id` itself does not stay in the document: under JSON Schema 2020-12 it would re-base every
 * reference inside the schema. The route's own schema objects (which Elysia validates with) are
 * never changed; the document gets copies.
 *
 * Examples are written once, on the resource models (`examples: [...]`); an operation's request and
 * success examples are composed from them (a page of companies is `{data: [<the Company example>], ...}`),
 * with a plain value for the few leaves no model gives one.
 */
type Json = Record<string, unknown>;

const REF_PREFIX = "#/components/schemas/";

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** A copy of `schema` with every `$id`-named subschema moved into `named` and replaced by its `$ref`. */
export function hoistNamed(schema: unknown, named: Record<string, unknown>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => hoistNamed(item, named));
  if (!isObject(schema)) return schema;
  const { $id, ...rest } = schema;
  const copy = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, key === "examples" || key === "example" ? value : hoistNamed(value, named)]),
  );
  if (typeof $id !== "string") return copy;
  const known = named[$id];
  if (known !== undefined && JSON.stringify(known) !== JSON.stringify(copy)) throw new Error(`OpenAPI: two different schemas are named ${$id}`);
  named[$id] = copy;
  return { $ref: `${REF_PREFIX}${$id}` };
}

const LEAVES: Record<string, unknown> = { string: "string", integer: 0, number: 0, boolean: true, null: null };

/** An example value of `schema`: its own example where it has one, else composed from its parts. */
export function exampleOf(schema: unknown, named: Record<string, unknown>): unknown {
  if (!isObject(schema)) return undefined;
  if (typeof schema.$ref === "string") return exampleOf(named[schema.$ref.slice(REF_PREFIX.length)], named);
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ("default" in schema) return schema.default;
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (branches) return exampleOf(branches.find((b) => isObject(b) && b.type !== "null") ?? branches[0], named);
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...schema.allOf.map((part) => exampleOf(part, named)));
  // OpenAPI 3.1's nullable form: `type: ["string", "null"]`.
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== "null") ?? "null") : schema.type;
  switch (type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, unknown>;
      const required = new Set((schema.required ?? []) as string[]);
      return Object.fromEntries(
        Object.entries(properties)
          .filter(([key]) => required.has(key))
          .map(([key, value]) => [key, exampleOf(value, named)]),
      );
    }
    case "array":
      return [exampleOf(schema.items, named)];
    case "string":
      return schema.format === "date-time" ? "2026-01-15T09:30:00.000Z" : schema.format === "email" ? "billing@example.com" : LEAVES.string;
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : LEAVES.integer;
    default:
      return LEAVES[String(type)];
  }
}
