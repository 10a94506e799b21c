/**
 * Request id, body-size limit and one structured log line per request.
 * The request id is taken from a well-formed incoming `X-Request-Id` or generated, and returned on every
 * response, errors included. The log line carries method, path (never the query string), status,
 * duration and who called (credential kind and id), never the credential itself.
 */
import { Elysia } from "elysia";
import type { Logger } from "../lib/logger";
import type { Principal } from "../auth/kinds";
import { ApiError } from "../lib/errors";

export interface RequestState {
  requestId: string;
  startedAt: number;
  principal?: Principal;
}

// Keyed by the Request object, so state follows a request through every hook, 404s and errors included.
const states = new WeakMap<Request, RequestState>();

export function requestState(request: Request): RequestState {
  let state = states.get(request);
  if (!state) {
    state = { requestId: newRequestId(), startedAt: performance.now() };
    states.set(request, state);
  }
  return state;
}

// Every request needs one, so it comes from the native UUID generator rather than newId's base62 sampling.
const newRequestId = () => `req_${crypto.randomUUID().replaceAll("-", "")}`;

const INCOMING_ID = /^[A-Za-z0-9_.:-]{8,128}$/;

export function requestContext(deps: { logger: Logger; bodyLimitBytes: number }) {
  return new Elysia()
    .onRequest(({ request, set }) => {
      const incoming = request.headers.get("x-request-id");
      const state: RequestState = {
        requestId: incoming && INCOMING_ID.test(incoming) ? incoming : newRequestId(),
        startedAt: performance.now(),
      };
      states.set(request, state);
      set.headers["x-request-id"] = state.requestId;
      const length = request.headers.get("content-length");
      if (length !== null && Number(length) > deps.bodyLimitBytes) {
        throw new ApiError(413, `Request body exceeds ${deps.bodyLimitBytes} bytes`);
      }
    })
    .onAfterResponse(({ request, set }) => {
      const state = states.get(request);
      if (!state || !deps.logger.enabled("info")) return;
      const url = request.url;
      const pathStart = url.indexOf("/", url.indexOf("//") + 2);
      const queryStart = url.indexOf("?", pathStart);
      deps.logger.info("request", {
        requestId: state.requestId,
        method: request.method,
        path: queryStart === -1 ? url.slice(pathStart) : url.slice(pathStart, queryStart),
        status: typeof set.status === "number" ? set.status : 200,
        durationMs: Math.round((performance.now() - state.startedAt) * 100) / 100,
        credential: state.principal ? { kind: state.principal.kind, id: state.principal.credentialId, teamId: state.principal.teamId } : undefined,
      });
    })
    .as("global");
}
