/**
 * x402 on the insufficient-credit 402, end to end on anvil with the real client (@x402/fetch + @x402/evm over a viem
 * account): the terms, the payment verified and settled by the service, the pack's credits granted only after the
 * transaction landed, the request run, PAYMENT-RESPONSE; the same payment again; v1's X-PAYMENT; another team.
 */
import { describe, expect, test } from "bun:test";
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { Hex } from "viem";
import { PACK_CREDITS, PACK_PRICE, post, termsOf, url, x402Service, x402Team } from "../helpers/x402";

const { bed, t, fetchService, payingFetch, main } = await x402Service();
const consumeBody = (extra: Record<string, unknown> = {}) => ({ company: "agent-co", feature: "ai-tokens", ...extra });
const sql = t.db.sql;
const paymentsOf = (teamId: string) =>
  sql`select status, network, payer, amount::text, credits::text, tx_hash from x402_payments where team_id = ${teamId} order by claimed_at`;

describe("the 402 carries x402 terms", () => {
  test("POST /usage/consume without credits: the spec's body, and PAYMENT-REQUIRED for the offered pack paid to the settlement wallet", async () => {
    const res = await fetchService(url("/usage/consume"), post(main.team.keys.secret, consumeBody()));
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ error: "Insufficient credits", code: "insufficient_credits" });
    expect(termsOf(res)).toEqual({
      x402Version: 2,
      error: "Insufficient credits",
      resource: { url: url("/usage/consume"), description: `Starter: ${PACK_CREDITS} credits`, mimeType: "application/json" },
      accepts: [
        {
          scheme: "exact",
          network: "eip155:31337",
          asset: bed.usdc,
          amount: String(PACK_PRICE),
          payTo: bed.payee,
          maxTimeoutSeconds: 300,
          extra: { name: "USD Coin", version: "2" },
        },
      ],
    });
  });

  test("POST /events: the same terms on its 402; a success carries no x402 header", async () => {
    const res = await fetchService(
      url("/events"),
      post(main.team.keys.legacy, { event_type: "track", name: "ai-tokens", company: { id: "agent-co" } }),
    );
    expect(res.status).toBe(402);
    expect(termsOf(res)?.accepts.map((a) => a.payTo)).toEqual([bed.payee]);
    const ok = await fetchService(
      url("/events"),
      post(main.team.keys.legacy, { event_type: "track", name: "page-view", company: { id: "agent-co" } }),
    );
    expect(ok.status).toBe(200);
    expect([...(ok.headers as unknown as Map<string, string>).keys()].filter((h) => /payment/i.test(h))).toEqual([]);
  });
});

describe("the agent pays with @x402/fetch", () => {
  test("POST /usage/consume: settled on chain by exactly the price, the pack's credits granted, the use applied, PAYMENT-RESPONSE", async () => {
    const before = await bed.balances();
    const res = await payingFetch()(url("/usage/consume"), post(main.team.keys.secret, consumeBody()));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data).toMatchObject({ consumed: 1, creditBalance: String(PACK_CREDITS - 2n), replayed: false });
    const settlement = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    expect(settlement).toEqual({
      success: true,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      network: "eip155:31337",
      payer: bed.payer.address,
    });
    const after = await bed.balances();
    expect(after).toEqual({ payer: before.payer - PACK_PRICE, payee: before.payee + PACK_PRICE, other: before.other });
    const receipt = await bed.anvil.client.getTransactionReceipt({ hash: settlement.transaction as Hex });
    expect(receipt.status).toBe("success");
    expect(await main.credits()).toBe(PACK_CREDITS - 2n);
    expect([...(await paymentsOf(main.team.teamId))]).toEqual([
      {
        status: "settled",
        network: "anvil",
        payer: bed.payer.address.toLowerCase(),
        amount: String(PACK_PRICE),
        credits: String(PACK_CREDITS),
        tx_hash: settlement.transaction,
      },
    ]);
    const audit = await sql`select actor_kind, details from audit_log where team_id = ${main.team.teamId} and action = 'credit.grant'`;
    expect(audit.map((a) => [a.actor_kind, a.details.amount])).toEqual([["secret", String(PACK_CREDITS)]]);
  });

  test("POST /events: the track that was refused is paid for and recorded", async () => {
    // Spend what is left so the next track needs more.
    while ((await main.credits()) >= 2n)
      expect((await fetchService(url("/usage/consume"), post(main.team.keys.secret, consumeBody()))).status).toBe(200);
    const before = await bed.balances();
    const credits = await main.credits();
    const res = await payingFetch()(
      url("/events"),
      post(main.team.keys.legacy, { event_type: "track", name: "ai-tokens", company: { id: "agent-co" } }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, data: { companyId: main.companyId } });
    expect(decodePaymentResponseHeader(res.headers.get("payment-response")!).success).toBe(true);
    expect(await bed.balances()).toEqual({ ...before, payer: before.payer - PACK_PRICE, payee: before.payee + PACK_PRICE });
    expect(await main.credits()).toBe(credits + PACK_CREDITS - 2n);
    const [event] = await sql`select outcome from events where team_id = ${main.team.teamId} and name = 'ai-tokens' order by seq desc limit 1`;
    expect(event?.outcome).toBe("accepted");
  });
});

describe("an idempotencyKey in the body", () => {
  test("the refused attempt's key does not replay its refusal once the retry paid: the use is decided again", async () => {
    while ((await main.credits()) >= 2n)
      expect((await fetchService(url("/usage/consume"), post(main.team.keys.secret, consumeBody()))).status).toBe(200);
    const credits = await main.credits();
    // @x402/fetch sends the refused request again, byte for byte, with the payment: the same idempotencyKey.
    const res = await payingFetch()(url("/usage/consume"), post(main.team.keys.secret, consumeBody({ idempotencyKey: "agent-use-1" })));
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({ consumed: 1, replayed: false });
    expect(await main.credits()).toBe(credits + PACK_CREDITS - 2n);
    // From then on the key answers with the accepted use, and consumes nothing more.
    const again = await fetchService(url("/usage/consume"), post(main.team.keys.secret, consumeBody({ idempotencyKey: "agent-use-1" })));
    expect((await again.json()).data).toMatchObject({ replayed: true });
    expect(await main.credits()).toBe(credits + PACK_CREDITS - 2n);
  });

  test("POST /events: the same for a track's idempotencyKey", async () => {
    while ((await main.credits()) >= 2n)
      expect((await fetchService(url("/usage/consume"), post(main.team.keys.secret, consumeBody()))).status).toBe(200);
    const track = { event_type: "track", name: "ai-tokens", company: { id: "agent-co" }, idempotencyKey: "agent-track-1" };
    const res = await payingFetch()(url("/events"), post(main.team.keys.legacy, track));
    expect(res.status).toBe(200);
    const [event] = await sql`select outcome from events where team_id = ${main.team.teamId} and idempotency_key = 'agent-track-1'`;
    expect(event?.outcome).toBe("accepted");
  });
});

describe("the same signed payment again", () => {
  /** A payment for the main team's pack, signed by the payer, as a PAYMENT-SIGNATURE header. */
  const signedPayment = async () => {
    const accepted = termsOf(await fetchService(url("/usage/consume"), post(main.team.keys.secret, consumeBody({ quantity: 1000 }))))!.accepts[0]!;
    const payload = await bed.authorize({ to: bed.payee, value: accepted.amount });
    return encodePaymentSignatureHeader({ x402Version: 2, accepted, payload });
  };

  test("the same request: the first settlement answers again, nothing settled or granted twice; another request: 402 replayed", async () => {
    const header = await signedPayment();
    const request = () => post(main.team.keys.secret, consumeBody({ idempotencyKey: "x402-retry" }), { "payment-signature": header });
    const first = await fetchService(url("/usage/consume"), request());
    expect(first.status).toBe(200);
    const balances = await bed.balances();
    const credits = await main.credits();
    const retry = await fetchService(url("/usage/consume"), request());
    expect(retry.status).toBe(200);
    expect((await retry.json()).data.replayed).toBe(true);
    expect(retry.headers.get("payment-response")).toBe(first.headers.get("payment-response"));
    expect(await bed.balances()).toEqual(balances);
    expect(await main.credits()).toBe(credits);

    const other = await fetchService(
      url("/usage/consume"),
      post(main.team.keys.secret, consumeBody({ idempotencyKey: "x402-other" }), { "payment-signature": header }),
    );
    expect(other.status).toBe(402);
    expect(await other.json()).toEqual({ error: "Insufficient credits", code: "insufficient_credits" });
    expect(termsOf(other)?.error).toBe("invalid_exact_evm_nonce_already_used");
    expect(await bed.balances()).toEqual(balances);
    expect(await main.credits()).toBe(credits);
  });

  test("two concurrent requests with one payment: settled once, granted once", async () => {
    const header = await signedPayment();
    const before = await bed.balances();
    const credits = await main.credits();
    const request = () =>
      fetchService(url("/usage/consume"), post(main.team.keys.secret, consumeBody({ idempotencyKey: "x402-race" }), { "payment-signature": header }));
    const answers = await Promise.all([request(), request(), request()]);
    const statuses = answers.map((a) => a.status);
    expect(statuses).toContain(200);
    for (const a of answers.filter((x) => x.status === 402)) expect(termsOf(a)?.error).toBe("settlement_pending");
    expect(await bed.balances()).toEqual({ ...before, payer: before.payer - PACK_PRICE, payee: before.payee + PACK_PRICE });
    expect(await main.credits()).toBe(credits + PACK_CREDITS - 2n);
  });
});

describe("x402 v1", () => {
  test("X-PAYMENT pays the same terms and is answered with X-PAYMENT-RESPONSE", async () => {
    const before = await bed.balances();
    const credits = await main.credits();
    const payload = await bed.authorize({ to: bed.payee, value: String(PACK_PRICE) });
    const header = Buffer.from(JSON.stringify({ x402Version: 1, scheme: "exact", network: "anvil", payload })).toString("base64");
    const res = await fetchService(url("/usage/consume"), post(main.team.keys.secret, consumeBody(), { "x-payment": header }));
    expect(res.status).toBe(200);
    expect(res.headers.get("payment-response")).toBeNull();
    const settlement = decodePaymentResponseHeader(res.headers.get("x-payment-response")!);
    expect(settlement).toMatchObject({ success: true, network: "anvil", payer: bed.payer.address }); // v1 names networks by name
    expect(await bed.balances()).toEqual({ ...before, payer: before.payer - PACK_PRICE, payee: before.payee + PACK_PRICE });
    expect(await main.credits()).toBe(credits + PACK_CREDITS - 2n);
  });
});

describe("tenants", () => {
  test("a second team is offered its own wallet, and the first team's payment gets it nothing", async () => {
    const second = await x402Team(t, bed, bed.otherPayee, "second x402 team");
    const refused = await fetchService(url("/usage/consume"), post(second.team.keys.secret, consumeBody()));
    expect(termsOf(refused)?.accepts.map((a) => a.payTo)).toEqual([bed.otherPayee]);
    const accepted = termsOf(await fetchService(url("/usage/consume"), post(main.team.keys.secret, consumeBody({ quantity: 1000 }))))!.accepts[0]!;
    const payload = await bed.authorize({ to: bed.payee, value: accepted.amount });
    const header = encodePaymentSignatureHeader({ x402Version: 2, accepted, payload });
    const before = await bed.balances();
    const res = await fetchService(url("/usage/consume"), post(second.team.keys.secret, consumeBody(), { "payment-signature": header }));
    expect(res.status).toBe(402);
    expect(termsOf(res)?.error).toBe("invalid_exact_evm_payload_recipient_mismatch");
    expect(await bed.balances()).toEqual(before);
    expect(await second.credits()).toBe(0n);
    expect([...(await paymentsOf(second.team.teamId))]).toEqual([]);
    // Its dashboard lists none of the first team's payments; the first team's lists them.
    const list = (token: string) => t.call("GET", "/dashboard/x402-payments?limit=200", { token });
    expect((await list(second.team.dashboardAdmin)).body.data).toEqual([]);
    expect((await list(main.team.dashboardAdmin)).body.data.length).toBeGreaterThan(0);
  });
});

describe("a pack smaller than the use", () => {
  test("settled and granted, then the use is still refused: 402 with both the settlement and new terms; payment.confirmed sent", async () => {
    const endpoint = await t.call("POST", "/dashboard/webhooks/endpoints", {
      token: main.team.dashboardAdmin,
      body: { url: "https://example.com/x402", eventTypes: ["payment.confirmed"] },
    });
    expect(endpoint.status).toBe(201);
    const accepted = termsOf(await fetchService(url("/usage/consume"), post(main.team.keys.secret, consumeBody({ quantity: 1000 }))))!.accepts[0]!;
    const payload = await bed.authorize({ to: bed.payee, value: accepted.amount });
    const header = encodePaymentSignatureHeader({ x402Version: 2, accepted, payload });
    const before = await bed.balances();
    const credits = await main.credits();
    const res = await fetchService(
      url("/usage/consume"),
      post(main.team.keys.secret, consumeBody({ quantity: 1000 }), { "payment-signature": header }),
    );
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ error: "Insufficient credits", code: "insufficient_credits" });
    expect(termsOf(res)?.error).toBe("Insufficient credits");
    const settlement = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    expect(settlement.success).toBe(true);
    expect(await bed.balances()).toEqual({ ...before, payer: before.payer - PACK_PRICE, payee: before.payee + PACK_PRICE });
    expect(await main.credits()).toBe(credits + PACK_CREDITS);
    const [message] = await sql`select body from webhook_messages where team_id = ${main.team.teamId} and event_type = 'payment.confirmed'`;
    const sent = JSON.parse(message!.body).data.payment;
    expect(sent).toMatchObject({
      status: "settled",
      companyId: main.companyId,
      creditPackId: main.pack.id,
      credits: String(PACK_CREDITS),
      network: "anvil",
      asset: bed.usdc.toLowerCase(),
      amount: String(PACK_PRICE),
      payer: bed.payer.address.toLowerCase(),
      payTo: bed.payee,
      txHash: settlement.transaction,
    });
    // The webhook sends the payment as the dashboard lists it.
    const listed = await t.call("GET", "/dashboard/x402-payments?status=settled&limit=200", { token: main.team.dashboardAdmin });
    expect(listed.body.data.find((p: { id: string }) => p.id === sent.id)).toEqual(sent);
  });
});

describe("with an Idempotency-Key", () => {
  test("the 402 with terms is not kept, so the paid retry runs; the paid answer is kept with its PAYMENT-RESPONSE", async () => {
    // More than the company holds, less than it holds with one pack more (2 credits a use).
    const body = consumeBody({ quantity: Number((await main.credits()) / 2n) + 1 });
    const keyed = (headers: Record<string, string> = {}) =>
      fetchService(url("/usage/consume"), post(main.team.keys.secret, body, { "idempotency-key": "x402-keyed", ...headers }));
    const unpaid = await keyed();
    expect(unpaid.status).toBe(402);
    const accepted = termsOf(unpaid)!.accepts[0]!;
    const header = encodePaymentSignatureHeader({
      x402Version: 2,
      accepted,
      payload: await bed.authorize({ to: bed.payee, value: accepted.amount }),
    });
    const paid = await keyed({ "payment-signature": header });
    expect(paid.status).toBe(200);
    expect(paid.headers.get("idempotent-replayed")).toBeNull();
    expect(decodePaymentResponseHeader(paid.headers.get("payment-response")!).success).toBe(true);
    const credits = await main.credits();
    const replay = await keyed({ "payment-signature": header });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.status).toBe(paid.status);
    expect(replay.headers.get("payment-response")).toBe(paid.headers.get("payment-response"));
    expect(await main.credits()).toBe(credits);
  });
});
