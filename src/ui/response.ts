/**
 * How a page answers: HTML under a Content-Security-Policy that allows nothing but this service's own files
 * (no inline script or style, no other origin, no framing), and the same-origin rule for every form post.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'";

const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

export async function page(html: string | Promise<string>, status = 200, headers: Record<string, string> = {}): Promise<Response> {
  return new Response(`<!doctype html>${await html}`, { status, headers: { ...PAGE_HEADERS, ...headers } });
}

/** 303 See Other: after a form post, the browser loads the next page with a GET (a reload never posts again). */
export function redirect(location: string, setCookie?: string | null): Response {
  const headers: Record<string, string> = { location, "cache-control": "no-store" };
  if (setCookie) headers["set-cookie"] = setCookie;
  return new Response(null, { status: 303, headers });
}

/**
 * A form post comes from one of our pages: a browser names the page's origin (`Origin`, `Sec-Fetch-Site`) on
 * every POST, so a post another site makes it send is refused here. This guards the sign-in form (which has no
 * session, hence no CSRF token yet: a forged sign-in would put the victim in the attacker's account); every
 * other write also carries the session's CSRF token, which the API checks.
 */
export function sameOrigin(request: Request): boolean {
  // The browser's own verdict when it gives one (every current browser does): it holds behind a proxy that
  // rewrites Host, where comparing Origin with Host would refuse every post.
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" || site === "none";
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  const host = request.headers.get("host") ?? new URL(request.url).host;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** Where to go back to after a switch: one of our pages, never another site (`//evil.example`). */
export function safeReturn(path: unknown): string {
  return typeof path === "string" && /^\/dashboard(\/[\w\-/]*)?$/.test(path) ? path : "/dashboard";
}
