/**
 * The local webhook receiver of bench/webhooks.ts, in a process of its own so it does not share the
 * delivering process's thread: `bun bench/webhook-receiver.ts <port>`, with WEBHOOK_SECRET (the endpoint's
 * `whsec_` secret) for `/verify`. Answers 200 to any POST; `/verify` first checks the Standard Webhooks
 * signature with the `standardwebhooks` library (400 when it fails). GET /stats: what it has counted.
 */
import { Webhook } from "standardwebhooks";

const port = Number(process.argv[2]);
const secret = process.env.WEBHOOK_SECRET;
const verifier = secret ? new Webhook(secret) : null;
const stats = { received: 0, verified: 0, refused: 0 };

const server = Bun.serve({
  hostname: "127.0.0.1",
  port,
  async fetch(request) {
    const path = new URL(request.url).pathname;
    if (request.method === "GET") return Response.json(path === "/stats" ? stats : { ok: true });
    const body = await request.text();
    stats.received++;
    if (path === "/verify") {
      try {
        const headers: Record<string, string> = {};
        request.headers.forEach((value, name) => {
          headers[name] = value;
        });
        verifier!.verify(body, headers);
        stats.verified++;
      } catch {
        stats.refused++;
        return new Response("bad signature", { status: 400 });
      }
    }
    return new Response("ok");
  },
});
process.on("SIGTERM", () => {
  server.stop(true);
  process.exit(0);
});
