/**
 * Reading the OpenAPI document as a client does: `$ref`s resolved through `components.schemas`, and a
 * value checked against a schema of the document (JSON Schema as OpenAPI 3.1 writes it). The checker
 * knows the keywords the document uses and throws on any other, so a schema it cannot judge fails the
 * test instead of passing it.
 */
type Schema = Record<string, any>;

const REF = "#/components/schemas/";

/** `schema` with every `$ref` replaced by the named schema (deeply). */
export function resolved(doc: any, schema: unknown): any {
  if (Array.isArray(schema)) return schema.map((s) => resolved(doc, s));
  if (!schema || typeof schema !== "object") return schema;
  const ref = (schema as Schema).$ref;
  if (typeof ref === "string") return resolved(doc, doc.components.schemas[ref.slice(REF.length)]);
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, key === "examples" || key === "example" ? value : resolved(doc, value)]),
  );
}

const ANNOTATIONS = new Set(["description", "title", "default", "examples", "example", "format", "x-expected", "x-field", "$ref"]);
const CHECKED = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "patternProperties",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "enum",
  "const",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
]);

const typeOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value);

/** What is wrong with `value` against `schema` (resolving `$ref`s in `doc`), as `path: problem` lines; [] when it conforms. */
export function schemaErrors(doc: any, schema: Schema, value: unknown, path = ""): string[] {
  if (schema.$ref) return schemaErrors(doc, doc.components.schemas[schema.$ref.slice(REF.length)], value, path);
  for (const key of Object.keys(schema))
    if (!ANNOTATIONS.has(key) && !CHECKED.has(key)) throw new Error(`schemaErrors: keyword ${key} at ${path || "/"} not handled`);
  const errors: string[] = [];
  const fail = (problem: string) => errors.push(`${path || "/"}: ${problem}`);
  if (schema.type !== undefined) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = typeOf(value);
    if (!types.includes(actual) && !(actual === "integer" && types.includes("number")))
      return [`${path || "/"}: expected ${types.join(" or ")}, got ${actual}`];
  }
  if ("const" in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) fail(`expected ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(value))) fail(`not one of ${schema.enum.join(", ")}`);
  for (const key of ["anyOf", "oneOf"] as const) {
    if (schema[key] && !schema[key].some((branch: Schema) => schemaErrors(doc, branch, value, path).length === 0))
      fail(`matches no branch of ${key}`);
  }
  for (const part of schema.allOf ?? []) errors.push(...schemaErrors(doc, part, value, path));
  if (typeof value === "string") {
    if (schema.minLength !== undefined && [...value].length < schema.minLength) fail(`shorter than ${schema.minLength}`);
    if (schema.maxLength !== undefined && [...value].length > schema.maxLength) fail(`longer than ${schema.maxLength}`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) fail(`does not match ${schema.pattern}`);
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) fail(`below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) fail(`above ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) fail(`fewer than ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) fail(`more than ${schema.maxItems} items`);
    if (schema.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) fail("items not unique");
    if (schema.items) value.forEach((item, i) => errors.push(...schemaErrors(doc, schema.items, item, `${path}/${i}`)));
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in object)) fail(`missing ${key}`);
    for (const [key, item] of Object.entries(object)) {
      const property = schema.properties?.[key];
      const patterned = Object.entries((schema.patternProperties ?? {}) as Record<string, Schema>).filter(([pattern]) =>
        new RegExp(pattern, "u").test(key),
      );
      if (property) errors.push(...schemaErrors(doc, property, item, `${path}/${key}`));
      for (const [, s] of patterned) errors.push(...schemaErrors(doc, s, item, `${path}/${key}`));
      if (!property && !patterned.length && schema.additionalProperties === false) fail(`unexpected property ${key}`);
      if (!property && !patterned.length && typeof schema.additionalProperties === "object")
        errors.push(...schemaErrors(doc, schema.additionalProperties, item, `${path}/${key}`));
    }
  }
  return errors;
}
