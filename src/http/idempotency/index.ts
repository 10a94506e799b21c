/**
 * The Idempotency-Key header on state-changing requests (rules: src/http/idempotency/rules.ts;
 * docs/api/idempotency.md). Two halves, each where its step can see what it needs:
 *
 * - `withIdempotency`, around `app.handle`: a POST/PUT/PATCH/DELETE carrying the header has its raw body
 *   hashed (Elysia has parsed the body before any hook runs) and, once the app has answered, its final
 *   response, error responses included, stored under the key or the key released. Any other request is
 *   passed straight through: reads and requests without the header cost nothing here.
 * - `idempotencyPlugin`, a global before-handle hook: it runs once the credential is authenticated,
 *   authorised and rate-limited and the input validated, so those refusals never touch the store; it
 *   claims the key (the request then runs) or answers from what the key holds.
 */
import { Elysia } from "elysia";
import type { Principal } from "../../auth/kinds";
import type { Db } from "../../db/queries";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import { apiError } from "../../lib/errors";
import { randomToken } from "../../lib/ids";
import { urlParts, urlPath } from "../../lib/url-parts";
import { claimKey, completeKey, findKey, releaseKey, type HeldKey, type KeySlot } from "./repo";
import { isKeptResponse, keptHeaders, keyProblem, KEYED_METHODS, requestFingerprint } from "./rules";
import { carriesSecret, seal, unseal } from "./sealed-body";
import { requestState } from "../request-context";
import { recordUse, type AuthDeps } from "../auth";

export interface IdempotencyDeps {
  sql: Db;
  clock: Clock;
  logger: Logger;
  /** the secrets that seal kept responses carrying a token (sealed-body.ts): the current one, then the previous */
  config: { tokenSigningSecret: string; previousTokenSigningSecret?: string };
}

type Handler = (request: Request) => Response | Promise<Response>;

interface Attempt {
  key: string;
  fingerprint: string;
  /** this attempt's mark on the row it claims */
  claim: string;
  /** set once the key is claimed: the response must then be stored or the key released */
  slot?: KeySlot;
}

// Carried on the Request, as the request state is (request-context.ts), from the wrapper to the hook and back.
const ATTEMPT = Symbol("idempotencyAttempt");
type WithAttempt = Request & { [ATTEMPT]?: Attempt };

export function withIdempotency(deps: IdempotencyDeps, handle: Handler): Handler {
  return (request) => {
    // The method first: a read is passed on without even a header lookup (~0.2 µs each).
    if (!KEYED_METHODS.has(request.method)) return handle(request);
    const key = request.headers.get("idempotency-key");
    if (key === null) return handle(request); // synchronously: not even a promise more
    return handleKeyed(deps, handle, request, key);
  };
}

async function handleKeyed(deps: IdempotencyDeps, handle: Handler, request: Request, key: string): Promise<Response> {
  const url = request.url;
  const body = await request.clone().arrayBuffer();
  const attempt: Attempt = { key, fingerprint: requestFingerprint(request.method, url.slice(urlParts(url).pathStart), body), claim: randomToken(24) };
  (request as WithAttempt)[ATTEMPT] = attempt;
  const response = await handle(request);
  return attempt.slot ? finish(deps, request, attempt, attempt.slot, response) : response;
}

export function idempotencyPlugin(deps: IdempotencyDeps & AuthDeps) {
  return new Elysia().onBeforeHandle({ as: "global" }, ({ request, set }) => {
    const attempt = (request as WithAttempt)[ATTEMPT];
    if (attempt === undefined) return;
    const principal = requestState(request).principal;
    if (principal === undefined) return; // a route that takes no credential: no scope to keep keys in
    return begin(deps, request, principal, attempt).then((replayed) => {
      if (replayed) {
        set.status = replayed.status; // for the request's log line
        recordUse(deps, principal); // a replay is a successful call of the key too (this hook runs before the route's resolve)
      }
      return replayed;
    });
  });
}

/** Claims the key, so the handler runs (undefined), or answers from the row holding it. */
async function begin(deps: IdempotencyDeps, request: Request, principal: Principal, attempt: Attempt): Promise<Response | undefined> {
  const problem = keyProblem(attempt.key);
  if (problem) throw apiError("validation_failed", "Validation failed", { "header.idempotency-key": problem });
  const slot: KeySlot = { teamId: principal.teamId, environment: principal.environment, scope: principal.credentialId, key: attempt.key };
  // Twice at most: the row found holding the key can be released between the claim and the read.
  for (let tries = 0; tries < 2; tries++) {
    if (await claimKey(deps.sql, slot, { claim: attempt.claim, fingerprint: attempt.fingerprint, now: deps.clock.now() })) {
      attempt.slot = slot;
      return undefined;
    }
    const held = await findKey(deps.sql, slot);
    if (!held) continue;
    if (held.fingerprint !== attempt.fingerprint) {
      throw apiError("idempotency_key_reused", "Idempotency-Key was already used for a different request (method, path or body)");
    }
    if (held.status === "complete") return replay(deps, held, request);
    break;
  }
  throw apiError("idempotency_key_in_use", "A request with this Idempotency-Key is still in progress; retry later");
}

async function replay(deps: IdempotencyDeps, held: HeldKey, request: Request): Promise<Response> {
  const headers = new Headers(held.response_headers!);
  headers.set("x-request-id", requestState(request).requestId);
  headers.set("idempotent-replayed", "true");
  const body = carriesSecret(urlPath(request.url)) ? await unsealed(deps, held.response_body!) : held.response_body;
  return new Response(body, { status: held.response_status!, headers });
}

/** A sealed body, opened with the current secret or, during a rotation, the previous one. */
async function unsealed(deps: IdempotencyDeps, stored: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const { tokenSigningSecret, previousTokenSigningSecret } = deps.config;
  return unseal(tokenSigningSecret, stored).catch((error) =>
    previousTokenSigningSecret ? unseal(previousTokenSigningSecret, stored) : Promise.reject(error),
  );
}

/** Stores a kept response under the key, or frees the key, before the client can retry. */
async function finish(deps: IdempotencyDeps, request: Request, attempt: Attempt, slot: KeySlot, response: Response): Promise<Response> {
  const kept = isKeptResponse(response.status, response.headers);
  const body = kept ? new Uint8Array(await response.arrayBuffer()) : null;
  try {
    const stored = body && carriesSecret(urlPath(request.url)) ? await seal(deps.config.tokenSigningSecret, body) : body;
    if (stored)
      await completeKey(deps.sql, slot, { claim: attempt.claim, status: response.status, headers: keptHeaders(response.headers), body: stored });
    else await releaseKey(deps.sql, slot, attempt.claim);
  } catch (error) {
    // The request's own work is done and its answer is true; a retry meanwhile gets 409 until the claim goes stale.
    deps.logger.warn("idempotency key not recorded", {
      requestId: requestState(request).requestId,
      error: error instanceof Error ? error.message : String(error),
    });
  }
  return body ? new Response(body, { status: response.status, headers: response.headers }) : response;
}
