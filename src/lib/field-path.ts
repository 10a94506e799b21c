/**
 * How a 400's `details` spell a field: dots between object keys, brackets around array indexes
 * (`body.lineItems[0].quantity`, `query.limit`, `body.traits.list[1]`), whoever finds the problem: the route's
 * schema (a JSON pointer, converted here), the checks that walk the decoded input, or the services.
 */

/** The path of `key` under `parent`, held by `container` (an array's items take brackets). */
export const childPath = (parent: string, container: unknown, key: string | number): string =>
  Array.isArray(container) ? `${parent}[${key}]` : `${parent}.${key}`;

/**
 * A JSON pointer (`/lineItems/0/quantity`) under `root` as a field path. Where the value it points into is
 * known, a segment is an index only if that value holds an array there (an object's key "0" stays `.0`);
 * where it is not, an all-digit segment is taken for an index.
 */
export function fieldPath(root: string, pointer: string, value?: unknown): string {
  let path = root;
  let at: unknown = value;
  for (const raw of pointer.split("/").slice(1)) {
    const segment = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    const isIndex = Array.isArray(at) || (at === undefined && /^\d+$/.test(segment));
    path = isIndex ? `${path}[${segment}]` : `${path}.${segment}`;
    at = at !== null && typeof at === "object" ? (at as Record<string, unknown>)[segment] : undefined;
  }
  return path;
}
