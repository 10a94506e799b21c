/**
 * A real SMTP server in process (smtp-server) that requires authentication and parses what arrives with
 * mailparser. `refuse` makes it answer RCPT TO with an error (451: try later; 550: never); `stop()` closes
 * it (connections refused) and `start()` listens again on the same port. Plain SMTP on 127.0.0.1 (no
 * STARTTLS offered), as a local relay would be, so `url` carries the loopback-only opt-out `?tls=none`
 * (src/lib/smtp-url.ts); `plainUrl` leaves it out, and a mailer must then refuse to authenticate.
 */
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";

export const SMTP_USER = "billing-relay";
/** characters that need percent-encoding in a URL, to see them decoded and never logged */
export const SMTP_PASSWORD = "s3cret:p@ss/w0rd";

export interface Arrived {
  envelope: { from: string; to: string[] };
  mail: ParsedMail;
}

export interface TestSmtpServer {
  port: number;
  /** smtp://user:password@127.0.0.1:port?tls=none, the password percent-encoded */
  url: string;
  /** the same without ?tls=none: STARTTLS required, which this server does not offer */
  plainUrl: string;
  /** AUTH commands received (a password sent over the connection) */
  auths: number;
  arrived: Arrived[];
  /** answer RCPT TO with this SMTP code (null: accept) */
  refuse: number | null;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  let server: SMTPServer | null = null;
  const state: TestSmtpServer = {
    port: 0,
    url: "",
    plainUrl: "",
    auths: 0,
    arrived: [],
    refuse: null,
    async start() {
      server = new SMTPServer({
        disabledCommands: ["STARTTLS"],
        allowInsecureAuth: true,
        authOptional: false,
        logger: false,
        // a stop ends pooled client connections at once instead of waiting for them
        closeTimeout: 50,
        onAuth(auth, _session, callback) {
          state.auths++;
          if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
          else callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
        },
        onRcptTo(_address, _session, callback) {
          if (state.refuse === null) return callback();
          const message = state.refuse >= 500 ? "No such mailbox here" : "Mailbox busy, try again later";
          callback(Object.assign(new Error(message), { responseCode: state.refuse }));
        },
        onData(stream, session, callback) {
          simpleParser(stream).then(
            (mail) => {
              const envelope = session.envelope;
              state.arrived.push({
                envelope: { from: envelope.mailFrom ? envelope.mailFrom.address : "", to: envelope.rcptTo.map((r) => r.address) },
                mail,
              });
              callback();
            },
            (error) => callback(error),
          );
        },
      });
      await new Promise<void>((resolve) => server!.listen(state.port, "127.0.0.1", resolve));
      state.port = (server.server.address() as { port: number }).port;
      state.plainUrl = `smtp://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${state.port}`;
      state.url = `${state.plainUrl}?tls=none`;
    },
    async stop() {
      const s = server;
      server = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
  await state.start();
  return state;
}
