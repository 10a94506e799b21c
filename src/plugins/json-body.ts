/**
 * Request bodies are JSON (spec: "Request and response bodies are JSON"). A body of any other type is
 * `415 {error}` before anything reads it. Why not let the route's schema refuse it: Elysia parses form
 * and multipart bodies too, and a cross-site HTML form can post those with a dashboard session's
 * cookie and no preflight; with JSON only, such a request never reaches a route. A JSON media type
 * written in another case (`Application/JSON; charset=utf-8`, media types are case-insensitive) is
 * passed on in the lower case Elysia's parser recognises.
 */
import { errorResponse } from "./errors";
import { requestState } from "./request-context";

type Handler = (request: Request) => Response | Promise<Response>;

const JSON_TYPE = "application/json";

const hasBody = (headers: Headers) => {
  const length = headers.get("content-length");
  return (length !== null && length !== "0") || headers.has("transfer-encoding");
};

export function withJsonBodies(handle: Handler): Handler {
  return (request) => {
    const headers = request.headers;
    const type = headers.get("content-type");
    if (type?.startsWith(JSON_TYPE) && (type.length === JSON_TYPE.length || type[JSON_TYPE.length] === ";")) return handle(request);
    if (!hasBody(headers)) return handle(request);
    if (type === null || type.split(";")[0]!.trim().toLowerCase() !== JSON_TYPE) {
      return errorResponse(415, { error: "Content-Type must be application/json" }, requestState(request).requestId);
    }
    const normalised = new Headers(headers);
    normalised.set("content-type", JSON_TYPE + type.slice(type.indexOf(";") === -1 ? type.length : type.indexOf(";")));
    return handle(new Request(request, { headers: normalised }));
  };
}
