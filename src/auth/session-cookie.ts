/**
 * The session cookie: `__Host-be_session` when Secure, `be_session` otherwise (docs/dashboard-sign-in.md).
 * HttpOnly (no script reads it); SameSite=Strict: the dashboard's pages and this API are one site and the dashboard is driven by its own requests, so nothing is lost by never sending the
 * cookie on a request another site starts, not even a top-level link (Lax would still send it there);
 * Path=/; Max-Age = the session's remaining lifetime; Secure unless DASHBOARD_COOKIE_SECURE=false (plain-http
 * local development only: a browser drops a Secure cookie sent over http).
 */
import { DASHBOARD_COOKIE, SECURE_DASHBOARD_COOKIE } from "./key-format";

const nameOf = (secure: boolean) => (secure ? SECURE_DASHBOARD_COOKIE : DASHBOARD_COOKIE);
const attributes = (secure: boolean) => `Path=/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;

export const sessionCookie = (token: string, maxAgeSeconds: number, secure: boolean) =>
  `${nameOf(secure)}=${token}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; ${attributes(secure)}`;

/** Sent at sign-out: the browser forgets the cookie. */
export const clearedCookie = (secure: boolean) => `${nameOf(secure)}=; Max-Age=0; ${attributes(secure)}`;
