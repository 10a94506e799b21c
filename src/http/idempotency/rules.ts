/**
 * The rules of the Idempotency-Key header (docs/api/idempotency.md), free of HTTP framework and
 * database: which requests it applies to, what a valid key is, what makes two requests "the same", which
 * responses are kept and for how long.
 */
import { DAY_MS } from "../../lib/period";

/** Kept at least this long (Stripe's 24 h), per credential and environment. */
export const RETENTION_MS = DAY_MS;

/**
 * An in-progress claim older than this is presumed to belong to a crashed instance and is taken over by
 * the next retry. The trade-off: a request genuinely still running after this long would run twice, so it
 * is far above any handler's time (database statements and chain jobs time out in seconds); the cost is
 * that a retry after a crash gets 409 until it passes.
 */
export const STALE_CLAIM_MS = 5 * 60 * 1000;

/** State-changing methods: GET, HEAD and OPTIONS never consult the store. */
export const KEYED_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

/** What is wrong with a header value, or null for a valid key: 1 to 255 printable ASCII characters. */
export const keyProblem = (key: string): string | null => (VALID_KEY.test(key) ? null : "Expected 1 to 255 printable ASCII characters");

/** Method, path with query and the raw body bytes, hashed: a retry must match all three. */
export function requestFingerprint(method: string, pathWithQuery: string, body: ArrayBuffer): string {
  const bodyHash = new Bun.CryptoHasher("sha256").update(body).digest("hex");
  return new Bun.CryptoHasher("sha256").update(`${method} ${pathWithQuery}\n${bodyHash}`).digest("hex");
}

/**
 * Whether a response is kept and replayed. Not kept, so that a retry runs again: 400 (the input was refused
 * before anything was written), 401 and 403 (a refused credential; these come before the claim anyway, or
 * from a handler that wrote nothing), 5xx (writes are transactional: a 500 wrote nothing), and an answer
 * that carries `Retry-After`: it says "not yet, nothing done" (a refund whose transaction is not final
 * yet), so replaying it would refuse the retry it asks for; likewise an answer carrying x402 payment terms
 * (`PAYMENT-REQUIRED`): it asks for the same request again with a payment, which must run. Everything else is
 * kept, 2xx and the other 4xx (402, 404, 409, 422, a quota's 429) included. (The request-rate 429 is answered
 * before the claim, so it never reaches this.)
 */
export const isKeptResponse = (status: number, headers: Headers): boolean =>
  status < 500 && status !== 400 && status !== 401 && status !== 403 && !headers.has("retry-after") && !headers.has("payment-required");

/**
 * The response headers replayed with a kept body; per-request ones (x-request-id, dates, limits) are not. An x402
 * settlement is part of the answer: a replay tells the payer again what its payment settled.
 */
const KEPT_HEADERS = ["content-type", "location", "retry-after", "payment-response", "x-payment-response"] as const;

export function keptHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value;
  }
  return kept;
}
