/**
 * A real webhook receiver for tests: Bun.serve on 127.0.0.1 (port 0) that verifies every request with the
 * standardwebhooks library against each secret it is given and records it. It answers what `respond` says
 * (a queue of statuses, then 200), after `delayMs`; while `hold` is set (and `respond` is empty) it answers
 * nothing at all, as a receiver that hangs, until `release`.
 */
import { Webhook } from "standardwebhooks";

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** the secrets (by index in `secrets`) whose signature verified */
  verifiedBy: number[];
  at: number;
  /** what it was answered; null while held */
  status: number | null;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** secrets to verify with; set after creating the endpoint */
  secrets: string[];
  /** statuses to answer next, in order; empty: 200 */
  respond: number[];
  /** wait this long before answering */
  delayMs: number;
  /** leave requests unanswered (once `respond` is empty) until release() */
  hold: boolean;
  /** answers every held request with `status` (nothing reaches a sender that is gone) and stops holding */
  release(status: number): void;
  stop(): void;
}

export function startReceiver(): Receiver {
  const held: Array<() => void> = [];
  const receiver: Receiver = {
    url: "",
    received: [],
    secrets: [],
    respond: [],
    delayMs: 0,
    hold: false,
    release(status) {
      receiver.hold = false;
      releaseWith = status;
      for (const answer of held.splice(0)) answer();
    },
    stop: () => {
      receiver.release(503);
      server.stop(true);
    },
  };
  let releaseWith = 503;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const body = await request.text();
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const verifiedBy: number[] = [];
      receiver.secrets.forEach((secret, i) => {
        try {
          new Webhook(secret).verify(body, headers);
          verifiedBy.push(i);
        } catch {}
      });
      const entry: Received = { path: new URL(request.url).pathname, headers, body, verifiedBy, at: Date.now(), status: null };
      receiver.received.push(entry);
      let status = receiver.respond.shift();
      if (status === undefined && receiver.hold) {
        await new Promise<void>((resolve) => held.push(resolve));
        status = releaseWith;
      }
      if (receiver.delayMs > 0) await Bun.sleep(receiver.delayMs);
      entry.status = status ?? 200;
      return new Response(entry.status === 200 ? "ok" : `status ${entry.status}`, { status: entry.status });
    },
  });
  receiver.url = `http://127.0.0.1:${server.port}`;
  return receiver;
}
