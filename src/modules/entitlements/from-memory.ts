/**
 * GET /check and GET /flags/check answered from memory, in front of Elysia.
 *
 * Why: these are called on every request of an integrator's product, and on a warm instance the check
 * itself is a few microseconds. Elysia's per-request work around it (context, query normalisation,
 * async resolve and handler, response mapping) is skipped here: measured back to back on the bench,
 * server CPU per check fell from ~44 µs (35-50 over three runs) to ~40 µs (bench/README.md).
 *
 * How it stays one way of answering: this path runs the same functions as the Elysia routes
 * (`denial`, `spend`, `checkFeature`, `checkFlag`, `errorResponse`, `startRequest`), and it answers
 * only a plain request about what is already in memory: an API key (embed tokens and sessions are
 * verified by the route), the tenant's catalog and the company. Everything else is handed to Elysia
 * untouched and before any side effect, loads included: a query Elysia would have to decode (`%`,
 * `+`) or reject, a repeated parameter, a request with a body, anything not in memory, and every
 * refusal or error of the check. (Unknown parameters are ignored, as the route's query schema
 * ignores them.) Once the rate limit has been taken, the request is answered here: 200, or 429 in the
 * route's shape. Every route test runs through this dispatch (test/helpers/app.ts), so both paths
 * meet the same tests.
 */
import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { TObject } from "@sinclair/typebox";
import { ACCESS, denial, type RouteKey } from "../../auth/access";
import type { Principal } from "../../auth/kinds";
import { cachedKeyPrincipal } from "../../auth/resolve";
import { ApiError } from "../../lib/errors";
import { urlParts } from "../../lib/url-parts";
import type { Logger } from "../../lib/logger";
import { spend, type AuthDeps } from "../../plugins/auth";
import { errorResponse, unexpectedErrorResponse } from "../../plugins/errors";
import { logRequest, startRequest } from "../../plugins/request-context";
import { CheckQuery, FlagQuery } from "./model";
import { checkFeature, checkFlag, type EntitlementDeps, type LookupDeps } from "./service";

export type Handler = (request: Request) => Response | Promise<Response>;
type Deps = AuthDeps & EntitlementDeps & { logger: Logger };

interface MemoryRoute {
  access: RouteKey;
  check: (query: unknown) => boolean;
  answer: (deps: LookupDeps, principal: Principal, query: Record<string, string>) => unknown;
}

const compiled = (schema: TObject) => {
  const checker = TypeCompiler.Compile(schema);
  return (query: unknown) => checker.Check(query);
};

const ROUTES = new Map<string, MemoryRoute>([
  ["/api/v1/check", { access: "GET /check", check: compiled(CheckQuery), answer: (deps, p, q) => checkFeature(deps, p, q as never) }],
  ["/api/v1/flags/check", { access: "GET /flags/check", check: compiled(FlagQuery), answer: (deps, p, q) => checkFlag(deps, p, q as never) }],
]);

/** `handle` with the memory-only answers in front: what the server serves and what route tests call. */
export function withMemoryAnswers(deps: Deps, handle: Handler): Handler {
  const logging = deps.logger.enabled("info");
  const memory: LookupDeps = { entitlements: deps.entitlements.memoryOnly, clock: deps.clock };
  return (request) => {
    if (request.method === "GET") {
      const url = request.url;
      const { pathStart, queryStart } = urlParts(url);
      const route = queryStart === -1 ? undefined : ROUTES.get(url.slice(pathStart, queryStart));
      if (route) {
        const response = answerFromMemory(deps, memory, route, request, url.slice(queryStart + 1));
        if (response) return logging ? logged(deps.logger, request, response) : response;
      }
    }
    return handle(request);
  };
}

/** A Response when the request could be answered here; undefined (nothing done) to hand it to Elysia. */
function answerFromMemory(deps: Deps, memory: LookupDeps, route: MemoryRoute, request: Request, search: string): Response | Promise<Response> | undefined {
  const query = plainQuery(search);
  if (!query || !route.check(query)) return undefined;
  const headers = request.headers;
  if (headers.get("content-length") !== null) return undefined;
  // Nothing below loads anything: a credential, catalog or company not in memory is the route's to
  // load, after its rate limit, as are refusals (a key without the permission included).
  const principal = cachedKeyPrincipal(deps, headers);
  const policy = ACCESS[route.access];
  if (!principal || denial(policy, principal)) return undefined;
  let data: unknown;
  try {
    data = route.answer(memory, principal, query); // a miss throws NotInMemory
  } catch {
    return undefined; // also 400, 404…: the route answers errors
  }
  if (data instanceof Promise) return undefined; // memory-only lookups never load; kept honest all the same

  const state = startRequest(request);
  state.principal = principal;
  const ok = (windowHeaders?: Record<string, string>) => Response.json({ data }, { headers: { ...windowHeaders, "x-request-id": state.requestId } });
  const fail = (error: unknown) =>
    error instanceof ApiError ? errorResponse(error, state.requestId) : unexpectedErrorResponse(deps.logger, error, state.requestId);
  try {
    const admission = spend(deps, policy, principal); // authorised above (denial)
    return admission instanceof Promise ? admission.then(ok, fail) : ok(admission);
  } catch (error) {
    return fail(error);
  }
}

function logged(logger: Logger, request: Request, response: Response | Promise<Response>): Response | Promise<Response> {
  const log = (r: Response) => (logRequest(logger, request, r.status), r);
  return response instanceof Promise ? response.then(log) : log(response);
}

/**
 * `a=b&c=d` as an object when Elysia would read it literally: no escapes or `+`, no repeated or empty
 * names. Anything else is left to Elysia's parser.
 */
function plainQuery(search: string): Record<string, string> | null {
  const query: Record<string, string> = {};
  for (const pair of search.split("&")) {
    const eq = pair.indexOf("=");
    if (eq < 1 || pair.includes("%") || pair.includes("+") || pair.indexOf("=", eq + 1) !== -1) return null;
    const name = pair.slice(0, eq);
    if (Object.hasOwn(query, name)) return null;
    query[name] = pair.slice(eq + 1);
  }
  return query;
}
