/**
 * Paths the service refuses before routing resolves anything: an empty segment (`//`, a trailing `/`), a dot
 * segment (`.`, `..`, or their `%2e` spellings) and an encoded slash or backslash (`%2f`, `%5c`) inside a
 * segment. Each could make a path name another resource than it seems to: Bun's server resolves dot
 * segments before any handler runs (WHATWG URL rules), so `DELETE …/plans/p1/prices/%2e%2e` arrived as
 * `…/plans/p1/`, which the router matched as DELETE /dashboard/plans/{id}: the plan itself went. What a
 * resolved dot segment leaves behind (the empty last segment) is refused here; one in the middle of a path
 * is gone before we see the request, leaving the path any client would have sent for it. An encoded slash
 * would reach a handler as a `/` inside an id.
 */
import { apiError } from "../lib/errors";
import { urlPath } from "../lib/url-parts";

type Handler = (request: Request) => Response | Promise<Response>;

const MALFORMED = /\/\/|.\/$|\/(?:\.|%2e){1,2}(?:\/|$)|%2f|%5c/i;

export const MALFORMED_PATH_EXPECTED =
  "Expected a path without empty segments (// or a trailing /), dot segments (. or .., also as %2e) or encoded slashes (%2f, %5c)";

/** Throws the 400 for a path `MALFORMED` matches; `path` is the URL's path, without its query. */
export function assertWellFormedPath(path: string): void {
  if (MALFORMED.test(path)) throw apiError("validation_failed", "Validation failed", { path: MALFORMED_PATH_EXPECTED });
}

/**
 * The first thing the server does with a request (app.ts `serverFetch`), before the body limit, the
 * Idempotency-Key store and routing; the refusal is answered and logged by every-answer.ts.
 */
export const withWellFormedPath =
  (handle: Handler): Handler =>
  (request) => {
    assertWellFormedPath(urlPath(request.url));
    return handle(request);
  };
