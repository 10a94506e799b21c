/**
 * The process's one SMTP client (nodemailer), built from SMTP_URL by startAppDeps and closed by its stop().
 * Pooled: connections are kept and reused between messages (an SMTP handshake costs round trips, and
 * smtp-server, the tests' server, waits 100 ms before greeting each connection). SMTP_URL's user and
 * password are secrets: they only travel encrypted (src/lib/smtp-url.ts: TLS, or STARTTLS required, unless the relay
 * is on this machine), no text this module hands out (an error's description) contains them, and nodemailer's
 * own logging stays off.
 */
import nodemailer, { type Transporter } from "nodemailer";
import { parseSmtpUrl } from "../../../lib/smtp-url";

export interface MailMessage {
  from: { name: string; address: string };
  replyTo?: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; content: Uint8Array; contentType: string }[];
}

/** What a failed send tells the delivery: a description safe to store and log, and whether to try again. */
export interface SendFailure {
  error: string;
  /** the server refused this recipient or this message for good (a 5xx to RCPT TO or DATA): retrying cannot help */
  permanent: boolean;
}

const MAX_ERROR_LENGTH = 500;

export class Mailer {
  /** the SMTP server's host name: the last resort From domain (invoices@<host>) */
  readonly host: string;
  private readonly transport: Transporter;
  /** texts that must never leave this module: the URL, the user's password, percent-encoded and decoded */
  private readonly secrets: string[];

  constructor(smtpUrl: string) {
    const settings = parseSmtpUrl(smtpUrl);
    // The configuration refused such a URL at boot; this only guards a direct construction (tests, scripts).
    if ("error" in settings) throw new Error(`SMTP_URL cannot be used: ${settings.error}`);
    const { host, port, secure, requireTLS, ignoreTLS, auth } = settings;
    this.host = host;
    // Longest first, so a password inside the URL never leaves the rest of the URL behind. Any length: a
    // short password is still the password (its every occurrence is masked, meaningful or not).
    const encoded = new URL(smtpUrl).password;
    this.secrets = [smtpUrl, encoded, auth?.pass ?? ""].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
    this.transport = nodemailer.createTransport({
      host,
      port,
      // smtps: TLS from the first byte; smtp with credentials: STARTTLS or nothing (smtp-url.ts)
      secure,
      requireTLS,
      ignoreTLS,
      ...(auth ? { auth } : {}),
      pool: true,
      maxConnections: 3,
      // A job waits on these: fail in seconds, not nodemailer's minutes, and let the queue retry.
      connectionTimeout: 20_000,
      greetingTimeout: 20_000,
      socketTimeout: 60_000,
      // Our attachments are bytes: never let a message name a file or URL for nodemailer to read.
      disableFileAccess: true,
      disableUrlAccess: true,
      logger: false,
    });
  }

  /** Hands the message to the SMTP server; resolves once it accepted it, else a SendFailure. */
  async send(message: MailMessage): Promise<{ ok: true } | ({ ok: false } & SendFailure)> {
    try {
      await this.transport.sendMail({
        ...message,
        attachments: message.attachments.map((a) => ({ ...a, content: Buffer.from(a.content) })),
      });
      return { ok: true };
    } catch (error) {
      const e = error as { permanent?: boolean; command?: string };
      return { ok: false, error: this.describe(error), permanent: e.permanent === true && (e.command === "RCPT TO" || e.command === "DATA") };
    }
  }

  /** An error's message without any secret of SMTP_URL, cut to a length a row can keep. */
  describe(error: unknown): string {
    let text = error instanceof Error ? error.message : String(error);
    for (const secret of this.secrets) text = text.split(secret).join("***");
    return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
  }

  /** Closes the pooled connections (at shutdown, after the jobs that send have stopped). */
  close(): void {
    this.transport.close();
  }
}
