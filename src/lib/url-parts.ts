/**
 * Where a request URL's path and query start, found with two `indexOf`s: `new URL()` costs several
 * microseconds per request on the hot path, and a request's URL is always absolute (`scheme://host/…`).
 */
export interface UrlParts {
  /** index of the path's leading `/` */
  pathStart: number;
  /** index of the `?`, or -1 without a query */
  queryStart: number;
}

export function urlParts(url: string): UrlParts {
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  return { pathStart, queryStart: url.indexOf("?", pathStart) };
}

/** The path alone, never the query string (which may carry customer data). */
export function urlPath(url: string): string {
  const { pathStart, queryStart } = urlParts(url);
  return queryStart === -1 ? url.slice(pathStart) : url.slice(pathStart, queryStart);
}

/** `name` of a query string's `name=value` pair as a form decoder reads it (`+` is a space); undecodable escapes stay as sent. */
function queryName(pair: string): string {
  const equals = pair.indexOf("=");
  const raw = (equals === -1 ? pair : pair.slice(0, equals)).replaceAll("+", " ");
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * The first query parameter named more than once among those `isRead` says the route reads, or null.
 * Parsers answer such a query with one of the values (Elysia: the last), so `feature=a&feature=b` would
 * be answered for a feature the caller may not have meant.
 */
export function repeatedQueryName(url: string, isRead: (name: string) => boolean): string | null {
  const { queryStart } = urlParts(url);
  if (queryStart === -1) return null;
  const seen = new Set<string>();
  for (const pair of url.slice(queryStart + 1).split("&")) {
    if (pair === "") continue;
    const name = queryName(pair);
    if (!isRead(name)) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return null;
}
