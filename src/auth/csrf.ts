/**
 * The CSRF token of a dashboard session: an HMAC keyed by the session token itself. Only whoever holds the
 * session token can compute it, and a cross-site page never does (the cookie is HttpOnly and our answers
 * are not readable cross-origin), so it proves a write came from our own pages. Derived rather than stored,
 * GET /dashboard/session can hand it again to a page that lost it (a reload, a new tab) without a new
 * sign-in, and nothing about it needs a column.
 */
import { base64url, hmacSha256 } from "../lib/hash";

export const CSRF_HEADER = "x-csrf-token";

export const csrfTokenFor = (sessionToken: string): string => base64url(hmacSha256(sessionToken, "be-dashboard-csrf-v1"));
