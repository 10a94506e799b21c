/**
 * What a rate-limited response tells the client about its window: the IETF draft's `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (draft-ietf-httpapi-ratelimit-headers: seconds until the
 * oldest counted request leaves the window) on every response of a limited route, and on a refusal
 * `Retry-After` (RFC 9110), the same whole seconds: the sliding window admits the next request then.
 */
import type { Admission } from "./types";

export function rateLimitHeaders(limit: number, admission: Admission, nowMs: number): Record<string, string> {
  // Rounded up: a client that waits exactly this long is admitted, never refused again.
  const reset = String(Math.max(0, Math.ceil((admission.resetAtMs - nowMs) / 1000)));
  const headers: Record<string, string> = {
    "ratelimit-limit": String(limit),
    "ratelimit-remaining": String(admission.remaining),
    "ratelimit-reset": reset,
  };
  if (!admission.admitted) headers["retry-after"] = reset;
  return headers;
}
