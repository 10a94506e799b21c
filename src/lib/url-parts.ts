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
