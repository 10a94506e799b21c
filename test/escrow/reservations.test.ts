/**
 * Creating and reading escrow reservations on anvil (docs/escrow.md#creating-a-reservation): the payer's consent to
 * that very reservation moves exactly its amount into the contract, and the row matches the chain; every refusal
 * (another signer, other terms, a replay, an expired consent, malformed input) leaves balances and the contract as they
 * were and writes nothing. Responses are held to the served OpenAPI document (t.call).
 */
import { describe, expect, test } from "bun:test";
import type { Abi, Address } from "viem";
import { ESCROW_ABI } from "../../src/chains/evm/escrow-contract";
import { setSettlementWallet } from "../../src/modules/invoices/settings/manage";
import { account } from "../helpers/chains/anvil";
import { createTeamFixture } from "../helpers/fixtures";
import { escrowApp } from "../helpers/escrow";

const e = await escrowApp();
const { bed, t, team, create, reservationBody } = e;
/** Transactions the escrow operator has sent so far: one per reservation, never a second (reverting) twin. */
const operatorNonce = () => bed.anvil.client.getTransactionCount({ address: bed.operatorAccount.address });
const rows = async () => Number((await t.db.sql`select count(*)::int as n from escrow_reservations`)[0]!.n);

/** Runs `act` and checks it changed nothing: balances, the nonce's reservation on chain, the table. */
async function unchanged(nonce: string, act: () => Promise<void>) {
  const before = { balances: await bed.balances(), chain: await bed.reservation(nonce), rows: await rows() };
  await act();
  expect({ balances: await bed.balances(), chain: await bed.reservation(nonce), rows: await rows() }).toEqual(before);
}

describe("POST /escrow/reservations", () => {
  test("the payer's consent reserves exactly its amount: 201 authorized, the row matching the chain", async () => {
    const before = await bed.balances();
    const { body } = await reservationBody(bed.payer, { amount: 7_000_000n });
    const res = await create(body);
    expect(res.status).toBe(201);
    const r = res.body.reservation;
    const authorizeTx = r.transactions.authorize; // bun's toMatchObject writes its matchers into what it matched
    expect(r).toMatchObject({
      id: expect.stringMatching(/^esc_/),
      requestNonce: body.requestNonce,
      status: "authorized",
      network: "anvil",
      payer: bed.payer.address.toLowerCase(),
      payee: bed.payee.toLowerCase(),
      token: { symbol: "USDC", contract: bed.usdc.toLowerCase() },
      amount: "7000000",
      companyId: expect.stringMatching(/^comp_/),
      transactions: { authorize: expect.stringMatching(/^0x[0-9a-f]{64}$/), capture: null, dispute: null, refund: null },
    });
    expect(await bed.balances()).toEqual({ payer: before.payer - 7_000_000n, payee: before.payee, escrow: before.escrow + 7_000_000n });
    await e.expectChainMatches(body.requestNonce);
    const receipt = await bed.anvil.client.getTransactionReceipt({ hash: authorizeTx });
    expect(receipt.status).toBe("success");
    expect((await e.row(body.requestNonce))!.authorize_tx).toBe(authorizeTx);
  });

  test("a consent signed by someone else, or for other terms, is refused 400 bad_signature and nothing moves", async () => {
    const { body } = await reservationBody(bed.otherPayer, { payer: bed.payer.address });
    await unchanged(body.requestNonce, async () => {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: expect.any(String), details: { reason: "bad_signature" } });
    });
    const signed = (await reservationBody(bed.payer)).body;
    const others = [
      { ...signed, amount: "9000000" },
      { ...signed, requestNonce: `${signed.requestNonce}-other` },
      { ...signed, windowEnd: signed.windowEnd + 1 },
    ];
    for (const altered of others)
      await unchanged(altered.requestNonce, async () => {
        const res = await create(altered);
        expect({ status: res.status, reason: res.body.details?.reason }).toEqual({ status: 400, reason: "bad_signature" });
      });
  });

  test("a consent naming another payee than the team's settlement wallet does not verify", async () => {
    const { body } = await reservationBody(bed.payer, { payee: bed.owner.address });
    await unchanged(body.requestNonce, async () => {
      const res = await create(body);
      expect({ status: res.status, reason: res.body.details?.reason }).toEqual({ status: 400, reason: "bad_signature" });
    });
  });

  test("a consent replayed (another request, same nonce) is 409 nonce_used and moves nothing more", async () => {
    const { body } = await reservationBody(bed.payer);
    expect((await create(body)).status).toBe(201);
    await unchanged(body.requestNonce, async () => {
      const res = await create(body);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ details: { reason: "nonce_used" } });
    });
  });

  test("nonces are per payee: another team reserves the same nonce for its own wallet; neither can take the other's", async () => {
    const { body } = await reservationBody(bed.payer);
    expect((await create(body)).status).toBe(201);
    // Team B, its own settlement wallet on anvil; the same payer signed the same nonce for B.
    const other = await createTeamFixture(t, "Namespace neighbour");
    const walletB = account(3).address as Address;
    const tenantB = { teamId: other.teamId, environment: "development" as const };
    await setSettlementWallet(
      { sql: t.db.sql, registry: t.config.chains },
      { tenant: tenantB, actor: { kind: "test", id: "t", requestId: null }, now: new Date(t.clock.now()) },
      "anvil",
      { wallet: walletB },
    );
    const forB = (await reservationBody(bed.payer, { requestNonce: body.requestNonce, payee: walletB }, null)).body;
    const before = await bed.balances();
    const mine = await bed.reservation(body.requestNonce);
    const res = await create(forB, other.keys.secret);
    expect(res.status).toBe(201);
    expect(res.body.reservation).toMatchObject({ requestNonce: body.requestNonce, payee: walletB.toLowerCase(), status: "authorized" });
    expect((await bed.reservation(body.requestNonce, { payee: walletB })).status).toBe("authorized");
    expect(await bed.reservation(body.requestNonce)).toEqual(mine);
    expect((await bed.balances()).payer).toBe(before.payer - 5_000_000n);
    // Team B replaying A's consent cannot take A's nonce: A's consent names A's wallet, which is not B's payee.
    await unchanged(body.requestNonce, async () => {
      const { company: _acme, ...withoutCompany } = body;
      const replay = await create(withoutCompany, other.keys.secret);
      expect({ status: replay.status, reason: replay.body.details?.reason }).toEqual({ status: 400, reason: "bad_signature" });
    });
  });

  test("a network the environment does not settle on is 400 on body.network, before anything", async () => {
    const { body } = await reservationBody(bed.payer);
    await unchanged(body.requestNonce, async () => {
      const res = await create({ ...body, network: "base" });
      expect(res.status).toBe(400);
      expect(res.body.details["body.network"]).toBe("Test credentials settle only on test networks");
    });
  });

  test("an unknown company is 404 before the signature is checked", async () => {
    // Signed by someone else: the signature check would answer 400 bad_signature, but the company is looked at first.
    const { body } = await reservationBody(bed.otherPayer, { payer: bed.payer.address }, "no-such-company");
    await unchanged(body.requestNonce, async () => {
      const res = await create(body);
      expect(res.status).toBe(404);
    });
  });

  test("windowEnd and deadline: 9999-12-31T23:59:59Z is the last accepted second; one more is 400", async () => {
    const MAX = 253_402_300_799;
    const last = (await reservationBody(bed.payer, { windowEnd: MAX, deadline: MAX })).body;
    const res = await create(last);
    expect(res.status).toBe(201);
    expect(res.body.reservation).toMatchObject({ windowEndsAt: "9999-12-31T23:59:59.000Z", consentDeadline: "9999-12-31T23:59:59.000Z" });
    await e.expectChainMatches(last.requestNonce);
    for (const terms of [{ windowEnd: MAX + 1 }, { deadline: MAX + 1 }, { windowEnd: 10_000_000_000_000 }, { deadline: 18_446_744_073_709 }]) {
      const { body } = await reservationBody(bed.payer, terms);
      await unchanged(body.requestNonce, async () => {
        const bad = await create(body);
        expect(bad.status).toBe(400);
        expect(Object.keys(bad.body.details)).toEqual([Object.keys(terms)[0] === "windowEnd" ? "body.windowEnd" : "body.deadline"]);
      });
    }
  });

  test("a nonce the contract already holds for other terms (reserved elsewhere) is 409 and records nothing", async () => {
    const elsewhere = await bed.consent(bed.payer, { amount: 1_000_000n });
    await bed.write(bed.operatorAccount, bed.contract, ESCROW_ABI as Abi, "reserve", [elsewhere.struct, elsewhere.signature]);
    const { body } = await reservationBody(bed.payer, { requestNonce: elsewhere.consent.requestNonce });
    await unchanged(body.requestNonce, async () => {
      const res = await create(body);
      expect(res.status).toBe(409);
      expect(res.body.details.reason).toBe("nonce_used");
    });
    expect(await e.row(body.requestNonce)).toBeUndefined();
  });

  test("an expired consent, a window already over and an unknown token are refused before the chain", async () => {
    const nowS = Math.floor(t.clock.now() / 1000);
    const expired = (await reservationBody(bed.payer, { deadline: nowS - 1 })).body;
    const over = (await reservationBody(bed.payer, { windowEnd: nowS - 1, deadline: nowS + 60 })).body;
    const cases: [string, unknown, string][] = [
      ["consent_expired", expired, expired.requestNonce],
      ["window_invalid", over, over.requestNonce],
      ["unknown_token", { ...(await reservationBody(bed.payer)).body, token: "DAI" }, "x"],
    ];
    for (const [reason, body, nonce] of cases)
      await unchanged(nonce, async () => {
        const res = await create(body);
        expect({ reason, status: res.status, got: res.body.details?.reason }).toEqual({ reason, status: 400, got: reason });
      });
  });

  test("a payer without the funds or the approval: 402 and nothing reserved", async () => {
    const poor = await bed.newPayer(1_000_000n);
    const { body } = await reservationBody(poor, { amount: 2_000_000n });
    await unchanged(body.requestNonce, async () => {
      const res = await create(body);
      expect(res.status).toBe(402);
      expect(res.body.details.reason).toBe("insufficient_balance");
    });
    // The nonce is free again: nothing was reserved.
    expect(await e.row(body.requestNonce)).toBeUndefined();
  });

  test("malformed bodies are 400 with the field, before anything", async () => {
    const { body } = await reservationBody(bed.payer);
    const bad = [
      { ...body, amount: "1.5" },
      { ...body, amount: "0" },
      { ...body, payer: "0x12" },
      { ...body, requestNonce: "has space" },
      { ...body, requestNonce: "" },
      { ...body, signature: "nothex" },
      { ...body, extra: true },
    ];
    await unchanged(body.requestNonce, async () => {
      for (const b of bad) {
        const res = await create(b);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ error: expect.any(String), details: expect.any(Object) });
      }
    });
  });

  test("a network without an escrow contract or settlement wallet: 409 escrow_not_configured", async () => {
    const { body } = await reservationBody(bed.payer);
    const res = await create({ ...body, network: "base-sepolia" });
    expect(res.status).toBe(409);
    expect(res.body.details.reason).toBe("no_escrow_contract");
  });

  test("an Idempotency-Key retry answers the same reservation, reserving once", async () => {
    const { body } = await reservationBody(bed.payer);
    const before = await bed.balances();
    const first = await create(body, team.keys.secret, { "idempotency-key": `esc-${body.requestNonce}` });
    const second = await create(body, team.keys.secret, { "idempotency-key": `esc-${body.requestNonce}` });
    expect(first.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect((await bed.balances()).escrow).toBe(before.escrow + 5_000_000n);
  });
});

test("twin requests of one consent at once (no Idempotency-Key) reserve once: the others are told the nonce is used", async () => {
  const { body } = await reservationBody(bed.payer);
  const before = await bed.balances();
  const sent = await operatorNonce();
  // The race made likely: anvil stops mining for a moment, so the first's reserve is sent and not mined while its twins
  // arrive (a loaded machine's slow block, the flake this test caught). Each twin that lost the nonce's row used to
  // read no reservation on chain and send its own reserve of the same consent, all but one reverting.
  const chain = bed.anvil.client;
  await chain.setAutomine(false);
  const mining = Bun.sleep(500).then(async () => {
    await chain.setAutomine(true);
    await chain.mine({ blocks: 1 });
  });
  const answers = await Promise.all(Array.from({ length: 4 }, () => create(body)));
  await mining;
  // The first's row holds the nonce: pending (its reserve in flight) or already authorized, either way 409 to the rest.
  const ok = answers.filter((r) => r.status === 201);
  expect(ok.length).toBeGreaterThanOrEqual(1);
  expect(new Set(ok.map((r) => r.body.reservation.id)).size).toBe(1);
  for (const r of answers.filter((r) => r.status !== 201))
    expect({ status: r.status, reason: r.body.details?.reason }).toEqual({ status: 409, reason: "nonce_used" });
  expect(await bed.balances()).toEqual({ payer: before.payer - 5_000_000n, payee: before.payee, escrow: before.escrow + 5_000_000n });
  await e.expectChainMatches(body.requestNonce);
  // One reserve transaction: the twin never sent a second one (which would have reverted, costing gas).
  expect(await operatorNonce()).toBe(sent + 1);
});

describe("GET /escrow/reservations", () => {
  test("lists the environment's reservations with the spec's pagination and filters; another team sees none", async () => {
    await e.reserved();
    await e.reserved();
    const page1 = await t.call("GET", "/escrow/reservations?limit=2", { token: team.keys.secret });
    expect(page1.status).toBe(200);
    expect(page1.body.count).toBe(2);
    expect(page1.body.nextCursor).toEqual(expect.any(String));
    const page2 = await t.call("GET", `/escrow/reservations?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`, {
      token: team.keys.secret,
    });
    expect(page2.status).toBe(200);
    expect(page2.body.data.map((r: { id: string }) => r.id)).not.toContain(page1.body.data[0].id);
    const authorized = await t.call("GET", "/escrow/reservations?status=authorized&companyId=acme", { token: team.keys.secret });
    expect(authorized.body.data.length).toBeGreaterThan(0);
    expect(authorized.body.data.every((r: { status: string }) => r.status === "authorized")).toBe(true);
    const none = await t.call("GET", "/escrow/reservations?companyId=nobody", { token: team.keys.secret });
    expect(none.body).toEqual({ data: [], count: 0, nextCursor: null });
    const other = await createTeamFixture(t, "Other team");
    const theirs = await t.call("GET", "/escrow/reservations", { token: other.keys.secret });
    expect(theirs.body).toEqual({ data: [], count: 0, nextCursor: null });
    const one = page1.body.data[0];
    expect((await t.call("GET", `/escrow/reservations/${one.id}`, { token: team.keys.secret })).body.reservation).toEqual(one);
    expect((await t.call("GET", `/escrow/reservations/${one.id}`, { token: other.keys.secret })).status).toBe(404);
    expect((await t.call("GET", `/escrow/reservations/${one.id}`, { token: team.dashboardAdmin })).status).toBe(200);
  });
});
