/**
 * A real webhook receiver for tests: Bun.serve on 127.0.0.1 (port 0) that verifies every request with the
 * standardwebhooks library against each secret it is given and records it. It answers what `respond` says
 * (a queue of statuses, then 200).
 */
import { Webhook } from "standardwebhooks";

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** the secrets (by index in `secrets`) whose signature verified */
  verifiedBy: number[];
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** secrets to verify with; set after creating the endpoint */
  secrets: string[];
  /** statuses to answer next, in order; empty: 200 */
  respond: number[];
  stop(): void;
}

export function startReceiver(): Receiver {
  const receiver: Receiver = {
    url: "",
    received: [],
    secrets: [],
    respond: [],
    stop: () => server.stop(true),
  };
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
      receiver.received.push({ path: new URL(request.url).pathname, headers, body, verifiedBy, at: Date.now() });
      const status = receiver.respond.shift() ?? 200;
      return new Response(status === 200 ? "ok" : `status ${status}`, { status });
    },
  });
  receiver.url = `http://127.0.0.1:${server.port}`;
  return receiver;
}
