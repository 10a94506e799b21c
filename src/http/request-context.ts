/**
 * Request id, input PostgreSQL cannot store (src/lib/storable-input.ts), query parameters sent twice, and one structured log line
 * per request. (The body-size limit is applied before the app, in body-limit.ts.)
 * The request id is taken from a well-formed incoming `X-Request-Id` or generated, and returned on every
 * response, errors included: `withRequestId` writes it on the finished response, in front of the app. The log line carries method, path (never the query string; a credential in the
 * path masked: credential-paths.ts), status, duration and who called (credential kind and id), never the credential itself.
 */
import { Elysia } from "elysia";
import type { Logger } from "../lib/logger";
import type { Principal } from "../auth/kinds";
import { apiError } from "../lib/errors";
import { unstorableInput } from "../lib/storable-input";
import { INEXACT_NUMBER } from "../lib/exact-json";
import { randomToken } from "../lib/ids";
import { repeatedQueryName, urlPath } from "../lib/url-parts";
import { loggedPath } from "./credential-paths";

type Handler = (request: Request) => Response | Promise<Response>;

export interface RequestState {
  requestId: string;
  startedAt: number;
  principal?: Principal;
  /** The field path of a JSON number the body parser had to round (src/lib/exact-json.ts). */
  roundedNumber?: string;
  /** Body fields the route's schema does not know, as sent (unknown-fields.ts): refused with the other bad input. */
  unknownFields?: Record<string, string>;
}

// Carried on the Request object itself, so state follows a request through every hook, 404s and
// errors included. (A property under a private symbol: a WeakMap entry per request cost more.)
const STATE = Symbol("requestState");
type WithState = Request & { [STATE]?: RequestState };

/** The request's state, started here if no hook has started it yet (so the id rule is the same). */
export function requestState(request: Request): RequestState {
  return (request as WithState)[STATE] ?? startRequest(request);
}

// Every request needs one, so it is a counter under a random per-process prefix (unique across
// instances and restarts) rather than fresh randomness each time; ids are not secrets.
const PROCESS_PREFIX = `req_${randomToken(16)}`;
let requestCount = 0;
const newRequestId = () => `${PROCESS_PREFIX}${(++requestCount).toString(36)}`;

const INCOMING_ID = /^[A-Za-z0-9_.:-]{8,128}$/;

/** Starts a request's state: its id (a well-formed incoming `X-Request-Id`, or a new one) and its clock. */
export function startRequest(request: Request): RequestState {
  const incoming = request.headers.get("x-request-id");
  const state: RequestState = {
    requestId: incoming !== null && INCOMING_ID.test(incoming) ? incoming : newRequestId(),
    startedAt: performance.now(),
  };
  (request as WithState)[STATE] = state;
  return state;
}

/** The one log line of a finished request. */
export function logRequest(logger: Logger, request: Request, status: number): void {
  const state = (request as WithState)[STATE];
  if (!state) return;
  logger.info("request", {
    requestId: state.requestId,
    method: request.method,
    path: loggedPath(urlPath(request.url)),
    status,
    durationMs: Math.round((performance.now() - state.startedAt) * 100) / 100,
    credential: state.principal ? { kind: state.principal.kind, id: state.principal.credentialId, teamId: state.principal.teamId } : undefined,
  });
}

/**
 * The request's id on its response, whatever answered it (a route, an error, the body limit, a replay).
 * Written here, outside Elysia, rather than into Elysia's `set.headers`: any header there sends every
 * response through Elysia's general path, which builds a Headers object from them (a few µs per request);
 * with none, a route's object is answered by `Response.json` alone and gets the header afterwards.
 * Synchronous when the app answers synchronously.
 */
export function withRequestId(handle: Handler): Handler {
  return (request) => {
    const { requestId } = requestState(request);
    const response = handle(request);
    return response instanceof Promise ? response.then((r) => stamped(r, requestId)) : stamped(response, requestId);
  };
}

function stamped(response: Response, requestId: string): Response {
  try {
    response.headers.set("x-request-id", requestId);
    return response;
  } catch {
    // Immutable headers (a fetched response passed through): answer a copy.
    const headers = new Headers(response.headers);
    headers.set("x-request-id", requestId);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/**
 * Input given twice, not storable as sent, or body fields the route does not know (unknown-fields.ts): a 400
 * naming the field. Never returns anything, and is
 * written so that Elysia sees that (it reads a hook's source: a `return f(` or `=> f(` makes it await the
 * hook's result, a microtask on every request).
 */
function refuseUnstorableInput({
  body,
  query,
  params,
  request,
}: {
  body: unknown;
  query: Record<string, unknown>;
  params: unknown;
  request: Request;
}): void {
  const { roundedNumber: rounded, unknownFields } = requestState(request);
  const repeated = repeatedQueryName(request.url, Object.hasOwn.bind(null, query));
  const problem =
    (repeated === null ? null : { [`query.${repeated}`]: "Given more than once: send it once" }) ??
    unstorableInput(body, "body") ??
    unstorableInput(query, "query") ??
    unstorableInput(params, "path") ??
    (rounded ? { [rounded]: INEXACT_NUMBER } : null) ??
    unknownFields;
  if (problem) throw apiError("validation_failed", "Validation failed", problem);
}

export function requestContext(deps: { logger: Logger }) {
  const plugin = new Elysia();
  // After the route's own checks (credentials, then its schemas), before its handler writes anything.
  plugin.onBeforeHandle(refuseUnstorableInput);
  // The level is fixed for the process: with request logging off, register no after-response hook at
  // all, since Elysia schedules one per request for every such hook, even one that returns at once.
  if (deps.logger.enabled("info")) {
    plugin.onAfterResponse(({ request, set }) => logRequest(deps.logger, request, typeof set.status === "number" ? set.status : 200));
  }
  return plugin.as("global");
}
