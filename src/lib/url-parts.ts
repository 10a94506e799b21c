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
function queryName(raw: string): string {
  // Most names are sent as plain text: only a `%` or `+` needs decoding (and its try/catch).
  if (!raw.includes("%") && !raw.includes("+")) return raw;
  const spaced = raw.replaceAll("+", " ");
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/**
 * The first query parameter named more than once among those `isRead` says the route reads, or null.
 * Parsers answer such a query with one of the values (Elysia: the last), so `feature=a&feature=b` would
 * be answered for a feature the caller may not have meant.
 * Runs on every request with a query string, so it walks the URL by index instead of splitting it, and
 * remembers the few names read in a small array rather than a Set.
 */
export function repeatedQueryName(url: string, isRead: (name: string) => boolean): string | null {
  const { queryStart } = urlParts(url);
  if (queryStart === -1) return null;
  const seen: string[] = [];
  for (let start = queryStart + 1; start <= url.length; ) {
    let end = url.indexOf("&", start);
    if (end === -1) end = url.length;
    if (end > start) {
      const equals = url.indexOf("=", start);
      const name = queryName(url.slice(start, equals === -1 || equals > end ? end : equals));
      if (isRead(name)) {
        if (seen.includes(name)) return name;
        seen.push(name);
      }
    }
    start = end + 1;
  }
  return null;
}
