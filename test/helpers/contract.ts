/**
 * The served OpenAPI document is the contract: every response a test sees through a request helper is
 * checked against the document's entry for its operation and status, so the document cannot drift from
 * what the service answers. Wrap a handler (the app's `serverFetch`, or `fetch` against a running service)
 * with `contractChecked`; a response that the document does not describe throws, naming method, path,
 * status and what is wrong, and the test fails there.
 *
 * - The document is read once per process, from the first server a checked handler reaches
 *   (`/api/v1/openapi.json` on the same origin); every app the suite builds serves the same one.
 * - A status the operation does not list is a mismatch; so is a media type it does not list for that
 *   status, and an x402 header (PAYMENT-*, X-PAYMENT-*) it does not list for that status. JSON bodies are checked against the schema (test/helpers/openapi.ts `schemaErrors`, which
 *   refuses to judge a keyword it does not know); other bodies (PDF, XML, HTML) by media type only.
 * - A request no operation matches (an unknown path or method) must be the generic 404 `Error`, or a
 *   status every request can get (400 for a malformed path, as a `ValidationError`; 413, 500, 503): the
 *   server answers those before any route.
 */
import { schemaErrors } from "./openapi";

type Handler = (request: Request) => Response | Promise<Response>;
type Json = Record<string, any>;

export const API_PREFIX = "/api/v1";
const DOCUMENT_PATH = `${API_PREFIX}/openapi.json`;

/**
 * The document and the reference page that renders it describe the API and are not operations in it;
 * they are the only answers not checked (the document's own shape is test/api/openapi.test.ts's).
 */
const DESCRIBES_THE_API = new RegExp(`^${API_PREFIX}/(openapi\\.json|reference(/.*)?)$`);

/** What a request with no operation may be answered: statuses Elysia or the server front answers before routing. */
const UNROUTED_STATUSES = ["400", "404", "413", "500", "503"];

interface Operation {
  method: string;
  template: string;
  /** one entry per path segment: the literal, or null for a `{parameter}` */
  segments: (string | null)[];
  responses: Record<string, { content?: Record<string, { schema?: Json }>; headers?: Record<string, unknown> }>;
}

export interface Contract {
  doc: Json;
  operations: Operation[];
}

let loaded: Promise<Contract> | undefined;

function compile(doc: Json): Contract {
  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(methods)) {
      const segments = template
        .split("/")
        .slice(1)
        .map((s) => (/^\{\w+\}$/.test(s) ? null : s));
      operations.push({ method: method.toUpperCase(), template, segments, responses: operation.responses ?? {} });
    }
  }
  // As the router: at the first segment where two templates differ, a literal wins over a parameter.
  operations.sort((a, b) => {
    for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
      if ((a.segments[i] === null) !== (b.segments[i] === null)) return a.segments[i] === null ? 1 : -1;
    }
    return 0;
  });
  return { doc, operations };
}

/** The contract from a parsed document (the suite's own test of the checker builds one from a variant). */
export const contractFrom = (doc: Json): Contract => compile(doc);

/**
 * The operation a request reaches: method and path segments (percent-encoded as sent) against the templates.
 * As the router, a trailing slash reaches the same route.
 */
function operationOf(contract: Contract, method: string, pathname: string): Operation | undefined {
  const parts = (pathname.endsWith("/") ? pathname.slice(0, -1) : pathname).split("/").slice(1);
  return contract.operations.find(
    (o) => o.method === method && o.segments.length === parts.length && o.segments.every((s, i) => (s === null ? parts[i] !== "" : s === parts[i])),
  );
}

const mediaTypeOf = (headers: Headers) => (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();

/** What is wrong with a response against the contract: [] when it conforms. */
export function contractErrors(contract: Contract, method: string, url: string, status: number, headers: Headers, text: string): string[] {
  const { pathname } = new URL(url);
  const operation = operationOf(contract, method, pathname);
  const media = mediaTypeOf(headers);
  const parse = () => {
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      return undefined;
    }
  };
  if (!operation) {
    if (!UNROUTED_STATUSES.includes(String(status))) return [`no operation matches, and ${status} is not an answer every request can get`];
    if (status === 404) return jsonErrors(contract, { $ref: "#/components/schemas/Error" }, media, parse);
    if (status === 400) return jsonErrors(contract, { $ref: "#/components/schemas/ValidationError" }, media, parse);
    return [];
  }
  const response = operation.responses[String(status)];
  const name = `${operation.method} ${operation.template}`;
  if (!response) return [`${name} does not document status ${status} (it lists ${Object.keys(operation.responses).join(", ")})`];
  return [
    ...paymentHeaderErrors(`${name} ${status}`, response.headers ?? {}, headers),
    ...bodyErrors(contract, `${name} ${status}`, response, { media, text, parse }),
  ];
}

/** x402's response headers (PAYMENT-*, X-PAYMENT-*) must be documented for the status that carries them. */
function paymentHeaderErrors(where: string, documented: Record<string, unknown>, headers: Headers): string[] {
  const names = new Set(Object.keys(documented).map((h) => h.toLowerCase()));
  const errors: string[] = [];
  headers.forEach((_, header) => {
    if (/^(x-)?payment-/i.test(header) && !names.has(header.toLowerCase())) errors.push(`${where} does not document the ${header} header`);
  });
  return errors;
}

function bodyErrors(
  contract: Contract,
  where: string,
  response: Operation["responses"][string],
  reply: { media: string; text: string; parse: () => { value: unknown } | undefined },
): string[] {
  const { media, text, parse } = reply;
  const content = response.content ?? {};
  if (!Object.keys(content).length) return text === "" ? [] : [`${where} documents no body, got ${JSON.stringify(text.slice(0, 200))}`];
  const documented = content[media];
  if (!documented) return [`${where} documents ${Object.keys(content).join(", ")}, got content-type ${JSON.stringify(media)}`];
  if (media !== "application/json" || !documented.schema) return [];
  return jsonErrors(contract, documented.schema, media, parse);
}

function jsonErrors(contract: Contract, schema: Json, media: string, parse: () => { value: unknown } | undefined): string[] {
  if (media !== "application/json") return [`expected application/json, got content-type ${JSON.stringify(media)}`];
  const parsed = parse();
  if (!parsed) return ["the body is not JSON"];
  return schemaErrors(contract.doc, schema, parsed.value);
}

/**
 * `handle` with every response checked against the contract (read once per process through `handle`
 * itself). The response is returned unread, as `handle` gave it.
 */
export function contractChecked(handle: Handler): (request: Request) => Promise<Response> {
  return async (request) => {
    const method = request.method;
    const response = await handle(request);
    const { pathname } = new URL(request.url);
    if (DESCRIBES_THE_API.test(pathname)) return response;
    loaded ??= Promise.resolve(handle(new Request(new URL(DOCUMENT_PATH, request.url)))).then(async (r) => {
      if (r.status !== 200) throw new Error(`OpenAPI contract: ${DOCUMENT_PATH} answered ${r.status}`);
      return compile(await r.json());
    });
    const contract = await loaded;
    const text = await response.clone().text();
    const errors = contractErrors(contract, method, request.url, response.status, response.headers, text);
    if (errors.length) {
      throw new Error(
        `OpenAPI contract: ${method} ${pathname} answered ${response.status}, which the served document does not describe:\n  ${errors.join("\n  ")}\n  body: ${text.slice(0, 500)}`,
      );
    }
    return response;
  };
}
