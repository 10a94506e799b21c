/** A trivial Bun.serve server, the floor under everything: what the loader can drive at most. */
const port = Number(Bun.argv[2] ?? 3990);
const body = JSON.stringify({ ok: true });
Bun.serve({ port, hostname: "127.0.0.1", fetch: () => new Response(body, { headers: { "content-type": "application/json" } }) });
console.error(`trivial server on ${port}`);
