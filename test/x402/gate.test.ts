/**
 * When a payment header is not taken: a team that offers no payable pack, a request naming no known company. And
 * who the credits go to with an embed token: its own company. The chain is read before and after each.
 */
import { expect, test } from "bun:test";
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { archiveCreditPack } from "../../src/modules/catalog/credit-packs/edit";
import { OPERATOR } from "../../src/modules/teams/roles";
import { account } from "../helpers/chains/anvil";
import { PACK_CREDITS, PACK_PRICE, post, termsOf, url, x402Service, x402Team } from "../helpers/x402";

const { bed, t, fetchService, payingFetch, main } = await x402Service();
const offered = termsOf(await fetchService(url("/usage/consume"), post(main.team.keys.secret, { company: "agent-co", feature: "ai-tokens" })))!
  .accepts[0]!;
const signedFor = async (payTo: string) =>
  encodePaymentSignatureHeader({
    x402Version: 2,
    accepted: { ...offered, payTo },
    payload: await bed.authorize({ to: payTo, value: String(PACK_PRICE) }),
  });

test("a team offering no payable pack ignores the payment header: its 402 as before, nothing moves", async () => {
  const wallet = account(8).address;
  const quiet = await x402Team(t, bed, wallet, "x402 team without an offer");
  await archiveCreditPack({ sql: t.db.sql, chains: t.config.chains, now: () => new Date(t.clock.now()) }, quiet.tenant, OPERATOR, quiet.pack.id);
  const header = await signedFor(wallet);
  const before = await bed.balances();
  const res = await fetchService(
    url("/usage/consume"),
    post(quiet.team.keys.secret, { company: "agent-co", feature: "ai-tokens" }, { "payment-signature": header }),
  );
  expect(res.status).toBe(402);
  expect(await res.json()).toEqual({ error: "Insufficient credits", code: "insufficient_credits" });
  expect(res.headers.get("payment-required")).toBeNull();
  expect(res.headers.get("payment-response")).toBeNull();
  expect(await bed.balances()).toEqual(before);
  expect(await quiet.credits()).toBe(0n);
});

test("a request naming no known company takes no payment: the 404 it always was, nothing moves", async () => {
  const header = await signedFor(bed.payee);
  const before = await bed.balances();
  const res = await fetchService(
    url("/usage/consume"),
    post(main.team.keys.secret, { company: "nobody-co", feature: "ai-tokens" }, { "payment-signature": header }),
  );
  expect(res.status).toBe(404);
  expect(await bed.balances()).toEqual(before);
  expect(await t.db.sql`select id from x402_payments`).toHaveLength(0);
});

test("an embed token pays for its own company's track through @x402/fetch", async () => {
  const minted = await t.call("POST", "/api-keys/tokens", { token: main.team.keys.secret, body: { company: { id: "agent-co" } } });
  expect(minted.status).toBe(201);
  const before = await bed.balances();
  const credits = await main.credits();
  const res = await payingFetch()(url("/events"), post(minted.body.token, { event_type: "track", name: "ai-tokens" }));
  expect(res.status).toBe(200);
  expect(decodePaymentResponseHeader(res.headers.get("payment-response")!).payer).toBe(bed.payer.address);
  expect(await bed.balances()).toEqual({ ...before, payer: before.payer - PACK_PRICE, payee: before.payee + PACK_PRICE });
  expect(await main.credits()).toBe(credits + PACK_CREDITS - 2n);
  const [payment] = await t.db.sql`select company_id from x402_payments where status = 'settled'`;
  expect(payment?.company_id).toBe(main.companyId);
});
