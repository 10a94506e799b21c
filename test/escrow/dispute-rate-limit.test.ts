/**
 * POST /public/escrow/dispute takes no credential, so the request rate limit counts per client address (the spec's
 * 500 per sliding 60 s): requests count whether valid or not, and past the limit the answer is 429 with Retry-After,
 * before the body is read. The window slides with the service's clock.
 */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";

const t = await createTestApp();

test("the 501st dispute request from one address within 60 s is 429, whatever its body; the window then slides", async () => {
  const body = { requestNonce: "unknown-nonce", failureReason: "x" };
  for (let i = 0; i < 500; i++) {
    const res = await t.call("POST", "/public/escrow/dispute", { body });
    expect(res.status).toBe(400);
  }
  const limited = await t.call("POST", "/public/escrow/dispute", { body });
  expect(limited.status).toBe(429);
  expect(limited.body).toEqual({ error: "Rate limit exceeded" });
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  t.clock.advance(60_001);
  expect((await t.call("POST", "/public/escrow/dispute", { body })).status).toBe(400);
}, 60_000);
