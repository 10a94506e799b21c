/**
 * A service that cannot settle (no EVM operator key) takes nothing: the payment is refused with
 * unexpected_settle_error, its claim released, the chain unchanged; once an instance holds the key, the very same
 * signed payment goes through.
 */
import { afterAll, expect, test } from "bun:test";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import { createPeerInstance, createTestApp } from "../helpers/app";
import { x402Bed } from "../helpers/chains/x402";
import { PACK_CREDITS, PACK_PRICE, termsOf, x402Team } from "../helpers/x402";

const bed = await x402Bed();
afterAll(() => bed.stop());
const t = await createTestApp({ CHAIN_REGISTRY_FILE: bed.registryFile, RATE_LIMIT_ENABLED: "false" });
const main = await x402Team(t, bed, bed.payee);
const body = { company: "agent-co", feature: "ai-tokens", idempotencyKey: "operator-less" };

test("no operator key: refused and released, nothing moves; an instance with the key settles the same payment", async () => {
  const accepted = termsOf(await t.call("POST", "/usage/consume", { token: main.team.keys.secret, body }))!.accepts[0]!;
  const header = encodePaymentSignatureHeader({ x402Version: 2, accepted, payload: await bed.authorize({ to: bed.payee, value: accepted.amount }) });
  const before = await bed.balances();
  const refused = await t.call("POST", "/usage/consume", { token: main.team.keys.secret, body, headers: { "payment-signature": header } });
  expect(refused.status).toBe(402);
  expect(termsOf(refused)?.error).toBe("unexpected_settle_error");
  expect(await t.db.sql`select id from x402_payments`).toHaveLength(0);
  expect(await bed.balances()).toEqual(before);

  const keyed = await createPeerInstance(t, { operatorKeys: { SUBSCRIPTION_EVM_OPERATOR_KEY: bed.operatorKey } });
  const paid = await keyed.call("POST", "/usage/consume", { token: main.team.keys.secret, body, headers: { "payment-signature": header } });
  expect([paid.status, termsOf(paid)?.error]).toEqual([200, undefined]);
  expect(await bed.balances()).toEqual({ ...before, payer: before.payer - PACK_PRICE, payee: before.payee + PACK_PRICE });
  expect(await main.credits()).toBe(PACK_CREDITS - 2n);
});
