/**
 * The responses an operation can return without its route saying so, each derived from the rule that
 * produces it (completeDocument adds them):
 * - every operation: 413 (the body limit answers any request whose body is too large, whatever the
 *   method or path, before routing: src/http/body-limit.ts) and 500 (the error handler's last resort);
 * - every authenticated operation (a row of the access matrix): 401, 403 with the codes its row can
 *   produce, and 415 (the `access` macro refuses a body that is not JSON on any method, GETs included);
 *   429 where the row is rate limited;
 * - wherever parameters or a body are validated: 400.
 * Statuses and shapes come from the one error table (src/lib/errors.ts); the access row is taken by
 * shape so this file stays free of src/auth.
 */
import type { TSchema } from "@sinclair/typebox";
import { ERROR_SHAPES, ErrorBody } from "./error-schemas";
import { ERRORS, type ErrorCode } from "../lib/errors";

export interface Reply {
  description: string;
  content: { "application/json": { schema: TSchema; example?: unknown } };
  headers?: object;
}

/** A row of the access matrix (src/auth/access.ts), as far as the document needs it. */
export interface AccessRow {
  kinds: readonly string[];
  /** one permission, or a list of which any one suffices */
  permission?: string | readonly string[];
  role?: string;
  rateLimited?: true;
}

const reply = (description: string, schema: TSchema): Reply => ({ description, content: { "application/json": { schema } } });

/** A response for the codes given: their one status and shape, each code with its table description. */
function replyFor(lead: string, codes: ErrorCode[]): Reply {
  const shape = ERRORS[codes[0]!].shape;
  const lines = codes.map((code) => `- \`${code}\`: ${ERRORS[code].description}`);
  return reply([lead, ...lines].filter(Boolean).join("\n"), ERROR_SHAPES[shape]);
}

const RATE_LIMITED: Reply = {
  ...reply('Rate limit exceeded (`rate_limited`, exactly `{error: "Rate limit exceeded"}`): 500 requests per credential per sliding 60 s', ErrorBody),
  headers: {
    "Retry-After": { description: "Whole seconds until the window admits the next request", schema: { type: "integer" } },
    "RateLimit-Limit": { description: "Requests the window admits (500)", schema: { type: "integer" } },
    "RateLimit-Remaining": { description: "Requests the window still admits now (0 here)", schema: { type: "integer" } },
    "RateLimit-Reset": { description: "Whole seconds until the oldest counted request leaves the window", schema: { type: "integer" } },
  },
};

const KEY_KINDS = ["secret", "restricted", "publishable"];

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The 403 codes a row can produce: a kind it refuses always exists; a permission or role where one
 * applies; the embed token's company; on a write that takes dashboard sessions, the cookie's CSRF token.
 */
function forbidden(row: AccessRow, method: string): Reply {
  const codes: ErrorCode[] = ["wrong_credential_kind"];
  const needs: string[] = [];
  const permissions: readonly string[] = row.permission === undefined ? [] : typeof row.permission === "string" ? [row.permission] : row.permission;
  if (permissions.length && row.kinds.some((kind) => KEY_KINDS.includes(kind)))
    needs.push(`keys need permission ${permissions.map((p) => `\`${p}\``).join(" or ")}`);
  if (row.role && row.kinds.includes("dashboard")) needs.push(`dashboard sessions need role \`${row.role}\` (or admin)`);
  if (needs.length) codes.push("missing_permission");
  if (row.kinds.includes("embed")) codes.push("wrong_company");
  if (row.kinds.includes("dashboard") && WRITES.has(method)) {
    codes.push("csrf_failed");
    needs.push("a session sent as the `be_session` cookie needs its `X-CSRF-Token` header (one sent as a bearer does not)");
  }
  const lead = `Accepted credentials: ${row.kinds.join(", ")}${needs.length ? `; ${needs.join("; ")}` : ""}`;
  return replyFor(lead, codes);
}

export const UNIVERSAL = {
  400: replyFor("A malformed path (an empty or dot segment, an encoded slash) is refused before routing, on every route: `details.path`", [
    "validation_failed",
  ]),
  413: replyFor("The body limit applies to every request, whatever its method", ["payload_too_large"]),
  500: replyFor("", ["internal_error"]),
  503: replyFor("PostgreSQL cannot be reached for now (Retry-After)", ["database_unavailable"]),
};

export const VALIDATED = { 400: replyFor("Invalid input; `details` maps each field path to what is wrong", ["validation_failed", "malformed_json"]) };

export const BODY_MEDIA_TYPE = { 415: replyFor("Sent a body of another type (even on a GET)", ["unsupported_media_type"]) };

/** The responses an authenticated operation's access row implies. */
export function accessResponses(row: AccessRow, method = "GET"): Record<string, Reply> {
  return {
    401: replyFor("", ["missing_credentials", "invalid_credentials", "expired_credentials", "revoked_credentials"]),
    403: forbidden(row, method),
    ...BODY_MEDIA_TYPE,
    ...(row.rateLimited ? { 429: RATE_LIMITED } : {}),
  };
}

export const IDEMPOTENCY = {
  409: replyFor("Idempotency-Key: retry later", ["idempotency_key_in_use"]),
  422: replyFor("Idempotency-Key", ["idempotency_key_reused"]),
};

/** The security requirements of a row: the bearer header always; the dashboard cookie where dashboard sessions are accepted. */
export const securityOf = (row: AccessRow | undefined) =>
  !row ? [] : row.kinds.includes("dashboard") ? [{ bearer: [] }, { dashboardCookie: [] }] : [{ bearer: [] }];
