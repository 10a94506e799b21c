/**
 * Request bodies are JSON (spec: "Request and response bodies are JSON"). Three parts:
 *
 * - `withJsonMediaType`, in front of Elysia: a JSON media type written in another case
 *   (`Application/JSON; charset=utf-8`; media types are case-insensitive) is passed on in the lower
 *   case Elysia's parser recognises, instead of being read as no JSON at all.
 * - `assertJsonBody`, called by the `access` macro once the caller is authenticated and authorised (so
 *   401 and 403 come first, spec rule 9): a body of any other type is `415 {error}` before the route
 *   validates or handles it. Why not leave it to the route's schema: Elysia parses form and multipart
 *   bodies too, and a cross-site HTML form can post those with a dashboard session's cookie and no
 *   preflight; with JSON only, such a request never reaches a handler.
 * - `exactJsonBody`, Elysia's JSON parser replaced: a body that is not UTF-8 is malformed; a body that is not a
 *   JSON object (every route's body is one), or that nests more than MAX_NESTING levels, is a 400 here, before
 *   Elysia's schema sees it (Elysia passed `null`, `"x"` or `[]` as `{}` to a route whose fields are all
 *   optional, so a rotation ran on a body that said nothing; and describing a schema error in a value nested
 *   10,000 deep took seconds, 100,000 deep overflowed the stack: a 500); a number the service cannot hold exactly is noted on
 *   the request (src/lib/exact-json.ts) and refused with the other unstorable input, after credentials
 *   and the route's schemas (src/http/request-context.ts), never rounded in silence. (Here rather than
 *   in front of Elysia, which would cost a second Request per body, ~12 us; a function parser hides the
 *   routes' JSON bodies from the OpenAPI generator, so completeDocument puts them back.)
 */
import { Elysia } from "elysia";
import { apiError } from "../lib/errors";
import { roundedNumberIn } from "../lib/exact-json";
import { MAX_NESTING, nestedDeeperThan } from "../lib/storable-input";
import { onBehalfOf } from "./client-address";
import { malformedJson } from "./errors";
import { requestState } from "./request-context";

type Handler = (request: Request) => Response | Promise<Response>;

const JSON_TYPE = "application/json";

const isJsonAsElysiaReadsIt = (type: string) => type.startsWith(JSON_TYPE) && (type.length === JSON_TYPE.length || type[JSON_TYPE.length] === ";");
const mediaType = (type: string) => type.split(";")[0]!.trim().toLowerCase();

const hasBody = (headers: Headers) => {
  const length = headers.get("content-length");
  return (length !== null && length !== "0") || headers.has("transfer-encoding");
};

export function withJsonMediaType(handle: Handler): Handler {
  return (request) => {
    const type = request.headers.get("content-type");
    if (type === null || isJsonAsElysiaReadsIt(type) || mediaType(type) !== JSON_TYPE) return handle(request);
    const headers = new Headers(request.headers);
    const parameters = type.indexOf(";") === -1 ? "" : type.slice(type.indexOf(";"));
    headers.set("content-type", JSON_TYPE + parameters);
    return handle(onBehalfOf(new Request(request, { headers }), request));
  };
}

/** 415 for a request whose body is not JSON; nothing for one without a body. */
export function assertJsonBody(request: Request): void {
  const headers = request.headers;
  // Whether there is a body first: a read (every /check) then costs two header lookups, not three.
  if (!hasBody(headers)) return;
  const type = headers.get("content-type");
  if (type === null || !isJsonAsElysiaReadsIt(type)) throw apiError("unsupported_media_type", "Content-Type must be application/json");
}

// JSON is UTF-8 (RFC 8259 section 8.1), whatever a charset parameter claims. `request.text()` would put U+FFFD
// in place of bytes that are not UTF-8, so two different names or ids would be stored as one; fatal decoding
// refuses them as malformed JSON instead (a byte order mark is still dropped, as text() does).
const utf8 = new TextDecoder("utf-8", { fatal: true });

function strictUtf8(bytes: ArrayBuffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw malformedJson();
  }
}

export function exactJsonBody() {
  return new Elysia({ name: "exact-json-body" })
    .onParse(async ({ request }, contentType) => {
      if (!isJsonAsElysiaReadsIt(contentType)) return undefined;
      const text = strictUtf8(await request.arrayBuffer());
      if (text === "") return undefined; // as Elysia's own parser: no body (an optional one) or a parse error
      if (nestedDeeperThan(text, MAX_NESTING))
        throw apiError("validation_failed", "Validation failed", { body: `Nested more than ${MAX_NESTING} levels deep` });
      const value: unknown = JSON.parse(text);
      if (value === null || typeof value !== "object" || Array.isArray(value))
        throw apiError("validation_failed", "Validation failed", { body: "Expected a JSON object" });
      const rounded = roundedNumberIn(text, "body");
      if (rounded) requestState(request).roundedNumber = rounded;
      return value;
    })
    .as("global");
}
