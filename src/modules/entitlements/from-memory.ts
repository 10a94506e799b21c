/**
 * GET /check and GET /flags/check answered from memory, in front of Elysia.
 *
 * Why: these are called on every request of an integrator's product, and on a warm instance the check
 * itself is a few microseconds. Elysia's per-request work around it (context, query normalisation,
 * async resolve and handler, response mapping) is skipped here: measured back to back on the bench,
 * server CPU per check fell from ~44 µs (35-50 over three runs) to ~40 µs (bench/README.md).
 *
 * How it stays one way of answering: this path runs the same functions as the Elysia routes
 * (`resolvePrincipal`, `admit`, `checkFeature`, `errorResponse`, `startRequest`), and it answers only
 * when everything is in memory and the request is plain. Anything else is handed to Elysia untouched,
 * before any side effect: a query Elysia would have to decode (`%`, `+`) or reject, a repeated or
 * unknown parameter, a request with a body, a credential or company not yet cached, embed tokens and
 * sessions (their lookups are asynchronous), and every error of the check itself. Once the rate
 * limit has been taken the request is answered here, 200 or 429 (or 403) in the routes' exact shapes.
 * Every route test runs through this dispatch (test/helpers/app.ts), so both paths meet the same tests.
 */
import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { TObject } from "@sinclair/typebox";
import { ACCESS, type RouteKey } from "../../auth/access";
import type { Principal } from "../../auth/kinds";
import { resolvePrincipal } from "../../auth/resolve";
import { ApiError } from "../../lib/errors";
import type { Logger } from "../../lib/logger";
import type { MaybePromise } from "../../lib/maybe-promise";
import { admit, type AuthDeps } from "../../plugins/auth";
import { errorResponse } from "../../plugins/errors";
import { logRequest, startRequest } from "../../plugins/request-context";
import { CheckQuery, FlagQuery } from "./model";
import { checkFeature, checkFlag, type EntitlementDeps } from "./service";

export type Handler = (request: Request) => Response | Promise<Response>;
type Deps = AuthDeps & EntitlementDeps & { logger: Logger };

interface MemoryRoute {
  access: RouteKey;
  check: (query: unknown) => boolean;
  answer: (deps: Deps, principal: Principal, query: Record<string, string>) => MaybePromise<unknown>;
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
  return (request) => {
    if (request.method === "GET") {
      const url = request.url;
      const pathStart = url.indexOf("/", url.indexOf("//") + 2);
      const queryStart = url.indexOf("?", pathStart);
      const route = queryStart === -1 ? undefined : ROUTES.get(url.slice(pathStart, queryStart));
      if (route) {
        const response = answerFromMemory(deps, route, request, url.slice(queryStart + 1));
        if (response) return logging ? logged(deps.logger, request, response) : response;
      }
    }
    return handle(request);
  };
}

/** A Response when the request could be answered here; undefined (nothing done) to hand it to Elysia. */
function answerFromMemory(deps: Deps, route: MemoryRoute, request: Request, search: string): Response | Promise<Response> | undefined {
  const query = plainQuery(search);
  if (!query || !route.check(query)) return undefined;
  const headers = request.headers;
  if (headers.get("content-length") !== null) return undefined;
  let principal: Principal;
  let data: unknown;
  try {
    const resolved = resolvePrincipal(deps, headers);
    if (resolved instanceof Promise) return void resolved.catch(() => {}); // the route will await the same load
    principal = resolved;
    const answered = route.answer(deps, principal, query);
    if (answered instanceof Promise) return void answered.catch(() => {});
    data = answered;
  } catch {
    return undefined; // 400, 401, 404…: the route answers errors
  }
  const state = startRequest(request);
  state.principal = principal;
  const fail = (error: unknown) => {
    if (error instanceof ApiError) return errorResponse(error.status, error.body(), state.requestId);
    throw error;
  };
  const ok = () => Response.json({ data }, { headers: { "x-request-id": state.requestId } });
  try {
    const admission = admit(deps, ACCESS[route.access], principal);
    return admission instanceof Promise ? admission.then(ok, fail) : ok();
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
