/**
 * The Redis limiter against a real Redis (REDIS_URL, else the local one): the same edge cases as the
 * in-process limiter, one window shared by two instances, and failing open when Redis is away.
 * Every limiter gets a random key prefix, so runs and tests never share keys.
 */
import { afterAll, expect, test } from "bun:test";
import { RedisClient, type Socket, type TCPSocketListener } from "bun";
import { RedisRateLimiter, type RedisRateLimiterOptions } from "../../src/ratelimit/redis";
import { defineRateLimiterCases, takeMany } from "./cases";

const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const probe = new RedisClient(url, { connectionTimeout: 1_000, autoReconnect: false });
const reachable = await probe.send("PING", []).then(
  () => true,
  () => false,
);
probe.close();
const withRedis = test.skipIf(!reachable);
const label = reachable ? "redis" : `redis (skipped: no Redis reachable at ${new URL(url).host})`;

const limiters: RedisRateLimiter[] = [];
const make = (options: Partial<RedisRateLimiterOptions> = {}) => {
  const limiter = new RedisRateLimiter({ url, prefix: `rl-test:${crypto.randomUUID()}:`, ...options });
  limiters.push(limiter);
  return limiter;
};
afterAll(() => Promise.all(limiters.map((l) => l.close())));

defineRateLimiterCases(label, (limit, windowMs) => make({ limit, windowMs }), withRedis);

withRedis(`${label}: two instances share one window: 800 concurrent takes across both admit exactly 500`, async () => {
  const prefix = `rl-test:${crypto.randomUUID()}:`;
  const a = make({ prefix });
  const b = make({ prefix });
  const now = Date.UTC(2026, 0, 1);
  const results = await Promise.all(Array.from({ length: 800 }, (_, i) => (i % 2 ? a : b).take("shared", now + (i % 7))));
  expect(results.filter((r) => r.admitted).length).toBe(500);
  expect((await b.take("shared", now + 60_007)).admitted).toBe(true); // and both see the same window age out
});

withRedis(`${label}: a key holds at most the limit and expires after the window`, async () => {
  const prefix = `rl-test:${crypto.randomUUID()}:`;
  const l = make({ prefix, limit: 3 });
  expect(await takeMany(l, "k", Date.now(), 10)).toBe(3);
  const inspect = new RedisClient(url);
  expect(await inspect.send("ZCARD", [`${prefix}k`])).toBe(3);
  const ttl = Number(await inspect.send("PTTL", [`${prefix}k`]));
  expect(ttl).toBeGreaterThan(60_000);
  expect(ttl).toBeLessThanOrEqual(65_000);
  inspect.close();
});

test("redis unreachable: take fails open at once and reports the error, retrying at most once per delay", async () => {
  const errors: unknown[] = [];
  const l = new RedisRateLimiter({ url: "redis://127.0.0.1:1", onError: (e) => errors.push(e), reconnectDelayMs: 200 });
  const started = performance.now();
  expect((await l.take("k", Date.now())).admitted).toBe(true);
  expect(errors.length).toBe(1);
  expect(await takeMany(l, "k", Date.now(), 50)).toBe(50); // in backoff: admitted, no connect storm, no log storm
  expect(errors.length).toBe(1);
  expect(performance.now() - started).toBeLessThan(1_000);
  await Bun.sleep(250);
  expect((await l.take("k", Date.now())).admitted).toBe(true);
  expect(errors.length).toBe(2);
  await l.close();
});

withRedis(`${label}: fails open while Redis is away and enforces again once it is back`, async () => {
  const proxy = tcpProxy(new URL(url));
  const errors: unknown[] = [];
  const l = make({ url: `redis://127.0.0.1:${proxy.port}`, limit: 2, reconnectDelayMs: 0, onError: (e) => errors.push(e) });
  const now = Date.UTC(2026, 0, 1);
  expect(await takeMany(l, "k", now, 3)).toBe(2);
  proxy.cut();
  await Bun.sleep(50);
  expect(await takeMany(l, "k", now, 3)).toBe(3); // outage: fail open
  expect(errors.length).toBeGreaterThan(0);
  proxy.restore();
  expect((await l.take("k", now)).admitted).toBe(false); // back: the window kept in Redis applies again
  proxy.stop();
});

/** A TCP relay to Redis whose connections can be cut and whose listener can refuse new ones. */
function tcpProxy(target: URL) {
  type Pair = { upstream?: Socket<unknown>; pending: Uint8Array[] };
  const live = new Set<Socket<Pair>>();
  let accepting = true;
  const listener: TCPSocketListener<Pair> = Bun.listen<Pair>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(client) {
        if (!accepting) return void client.end();
        client.data = { pending: [] };
        live.add(client);
        void Bun.connect({
          hostname: target.hostname,
          port: Number(target.port || 6379),
          socket: {
            data: (_, chunk) => void client.write(chunk),
            close: () => void client.end(),
            error: () => void client.end(),
          },
        }).then((upstream) => {
          client.data.upstream = upstream;
          for (const chunk of client.data.pending) upstream.write(chunk);
        });
      },
      data(client, chunk) {
        if (client.data.upstream) client.data.upstream.write(chunk);
        else client.data.pending.push(new Uint8Array(chunk));
      },
      close(client) {
        live.delete(client);
        client.data?.upstream?.end();
      },
    },
  });
  return {
    port: listener.port,
    cut() {
      accepting = false;
      for (const client of live) client.end();
    },
    restore() {
      accepting = true;
    },
    stop() {
      this.cut();
      listener.stop(true);
    },
  };
}
