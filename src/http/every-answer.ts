/**
 * What every answer of the server gets, whoever wrote it (a route, Elysia's 404, the body limit's 413, a
 * failure thrown outside Elysia), in the outermost wrapper of the server's handler (app.ts `serverFetch`):
 * - `X-Content-Type-Options: nosniff`, and `Cache-Control: private, no-store` unless the answer set its own
 *   (the API reference page and its assets do): answers carry personal data and bearer links, and no
 *   browser or shared cache may keep a refusal for a link either;
 * - a failure thrown before or around the app (the Idempotency-Key store reading the database) answered in
 *   the error table's shapes, a database that is away as 503, and logged like any request.
 */
import type { Logger } from "../lib/logger";
import { failureResponse } from "./errors";
import { logRequest } from "./request-context";

type Handler = (request: Request) => Response | Promise<Response>;

const NO_STORE = "private, no-store";

function stamped(response: Response): Response {
  try {
    if (!response.headers.has("cache-control")) response.headers.set("cache-control", NO_STORE);
    response.headers.set("x-content-type-options", "nosniff");
    return response;
  } catch {
    // Immutable headers (a Response made by fetch or Response.redirect): the same answer, headers copied.
    const copy = new Response(response.body, response);
    return stamped(copy);
  }
}

export function withEveryAnswer(logger: Logger, handle: Handler): Handler {
  const failed = (request: Request, error: unknown) => {
    const response = failureResponse(logger, error, request);
    logRequest(logger, request, response.status);
    return stamped(response);
  };
  return (request) => {
    let answer: Response | Promise<Response>;
    try {
      answer = handle(request);
    } catch (error) {
      return failed(request, error);
    }
    return answer instanceof Promise ? answer.then(stamped, (error: unknown) => failed(request, error)) : stamped(answer);
  };
}
