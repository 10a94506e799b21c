/**
 * The ceiling for GET /check: a bare Elysia app with one route returning a small JSON object.
 * Served exactly as src/index.ts serves the real app (Bun.serve calling app.handle), so the ratio
 * against it measures the work of the route, not a difference in how the server is wired.
 *   bun bench/baseline-server.ts PORT
 */
import { Elysia } from "elysia";

const port = Number(Bun.argv[2] ?? 3901);
const app = new Elysia().get("/api/v1/ping", () => ({ ok: true, pong: "ping" }));
Bun.serve({ port, hostname: "127.0.0.1", fetch: (request) => app.handle(request) });
console.log(`baseline Elysia server on ${port}`);
