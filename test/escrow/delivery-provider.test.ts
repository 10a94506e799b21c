/**
 * Early capture on a proof of delivery is the payer's choice (docs/escrow.md#early-capture-on-a-proof-of-delivery): its
 * consent names the Reclaim provider whose proof counts as delivery, and only a verified proof of that provider, naming
 * the nonce (and, for a reservation made for a company, that company), captures before the window ends. A consent
 * naming no provider is captured only after its window; the contract itself refuses an early capture of it.
 */
import { describe, expect, test } from "bun:test";
import { keccak256, stringToBytes } from "viem";
import { canonicalJson } from "../../src/modules/proofs/compute";
import { escrowApp } from "../helpers/escrow";
import { drainJobs } from "../helpers/jobs";
import { signedProof } from "../helpers/zktls";

const e = await escrowApp();
const { bed, t, team, reserved, expectChainMatches } = e;
const AMOUNT = 5_000_000n;

/** Submits a verified proof of `provider` naming the nonce (and the company, when given), and runs the queued jobs. */
async function prove(requestNonce: string, provider: string, company: string | null) {
  // Each proof its own claim (another delivery URL), so none is a replay of the one before.
  const parameters = canonicalJson({ method: "GET", url: `https://api.example.com/deliveries/${crypto.randomUUID()}` });
  const proof = await signedProof(t.clock.now(), undefined, { provider, parameters, context: canonicalJson({ requestNonce }) });
  const body = company ? { company: { id: company }, proof } : { proof };
  const res = await t.call("POST", "/proofs/zktls", { token: team.keys.secret, body });
  expect(res.status).toBe(201);
  return (await drainJobs(t)).completed.map((j) => j.task);
}

/** `act` changes neither balances, the reservation on chain nor its row. */
async function unchanged(nonce: string, act: () => Promise<void>) {
  const snapshot = async () => {
    const { status, pending_action, updated_at } = (await e.row(nonce)) ?? {};
    return { balances: await bed.balances(), chain: await bed.reservation(nonce), row: { status, pending_action, updated_at } };
  };
  const before = await snapshot();
  await act();
  expect(await snapshot()).toEqual(before);
}

describe("early capture on a proof", () => {
  test("a consent naming no provider: no proof captures it early (the window is the payer's protection)", async () => {
    const r = await reserved();
    expect(r.deliveryProvider).toBeNull();
    expect((await bed.reservation(r.requestNonce)).deliveryProvider).toBe(`0x${"00".repeat(32)}`);
    await unchanged(r.requestNonce, async () => {
      expect(await prove(r.requestNonce, "http", "acme")).toContain("escrow.capture_on_proof");
    });
  });

  test("only a proof of the named provider, naming the reservation's company, captures early", async () => {
    const r = await reserved({ deliveryProvider: "http" });
    expect(r.deliveryProvider).toBe("http");
    // The consent signed keccak256 of the provider's name; the contract holds it.
    expect((await bed.reservation(r.requestNonce)).deliveryProvider).toBe(keccak256(stringToBytes("http")));
    await unchanged(r.requestNonce, async () => {
      // Another provider: a proof of something else is no proof of this delivery.
      await prove(r.requestNonce, "github-repo", "acme");
      // No company: a reservation made for acme is not captured on a proof that names no company.
      await prove(r.requestNonce, "http", null);
      // Another company of the team.
      await t.call("POST", "/events", { token: team.keys.legacy, body: { event_type: "identify", company: { id: "globex", name: "Globex" } } });
      await prove(r.requestNonce, "http", "globex");
    });
    const before = await bed.balances();
    await prove(r.requestNonce, "http", "acme");
    const { db } = await expectChainMatches(r.requestNonce);
    expect({ status: db.status, early: db.captured_early }).toEqual({ status: "captured", early: true });
    expect(await bed.balances()).toEqual({ payer: before.payer, payee: before.payee + AMOUNT, escrow: before.escrow - AMOUNT });
  });

  test("a reservation made for no company is captured on a proof of its provider with or without a company", async () => {
    const { body } = await e.reservationBody(bed.payer, { deliveryProvider: "http" }, null);
    expect((await e.create(body)).status).toBe(201);
    await prove(body.requestNonce, "http", null);
    expect((await expectChainMatches(body.requestNonce)).db.status).toBe("captured");
  });
});
