/**
 * SMTP_URL, read in one place: by the configuration at boot (a value that fails here stops the boot) and by the
 * mailer. No text made here repeats the URL: it holds the relay's password.
 *   smtps://user:pass@host[:465]   TLS from the first byte.
 *   smtp://user:pass@host[:587]    STARTTLS required: the password is never sent before the connection is
 *                                  encrypted. Otherwise nodemailer sends AUTH in clear to a server that offers no
 *                                  STARTTLS, or whose offer a man in the middle removed.
 *   smtp://host[:port]             no credentials: STARTTLS when the server offers it (nothing secret to lose
 *                                  but the email itself, as with any relay that takes plain SMTP).
 *   smtp://…@localhost:2525?tls=none   plain SMTP, STARTTLS never used: a relay on this machine (a loopback
 *                                  host only, so the password never crosses a network).
 */

export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (smtps) */
  secure: boolean;
  /** STARTTLS or no AUTH and no message (smtp with credentials) */
  requireTLS: boolean;
  /** never STARTTLS (?tls=none, loopback only) */
  ignoreTLS: boolean;
  /** percent-decoded; absent without credentials */
  auth?: { user: string; pass: string };
}

const EXPECTED = "Expected smtp://user:password@host:port (STARTTLS required) or smtps://… (TLS)";

/** Hosts that never leave this machine: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The settings SMTP_URL names, or why it names none (a sentence that never repeats the URL). */
export function parseSmtpUrl(value: string): SmtpSettings | { error: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { error: EXPECTED };
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const secure = url.protocol === "smtps:";
  if ((!secure && url.protocol !== "smtp:") || !host) return { error: EXPECTED };
  if (url.pathname !== "" && url.pathname !== "/") return { error: `${EXPECTED}, without a path` };
  const params = [...url.searchParams.keys()];
  const tls = url.searchParams.get("tls");
  if (params.some((name) => name !== "tls") || params.length > 1 || (tls !== null && tls !== "none"))
    return { error: "The only query parameter SMTP_URL takes is tls=none" };
  if (tls === "none") {
    if (secure) return { error: "tls=none is for smtp://, not smtps://" };
    if (!isLoopbackHost(host)) return { error: "tls=none (plain SMTP) is only allowed for a loopback host (localhost, 127.0.0.1, ::1)" };
  }
  let user: string;
  let pass: string;
  try {
    [user, pass] = [decodeURIComponent(url.username), decodeURIComponent(url.password)];
  } catch {
    return { error: `${EXPECTED}, user and password percent-encoded` };
  }
  return {
    host,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTLS: !secure && tls === null && user !== "",
    ignoreTLS: tls === "none",
    ...(user ? { auth: { user, pass } } : {}),
  };
}
