/**
 * The reference is the chain-side idempotency key: the same reference never pulls twice, whether the first
 * pull's answer arrived, was lost, or the first pull is still pending; a pull that failed on chain frees it.
 * Also: what the adapter answers when it is not configured or the RPC is away.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { ChainPool } from "../../src/chains/pool";
import type { ChargeRequest, OperationResult } from "../../src/chains/subscription-types";
import { type StellarSubscriptionSetup, startStellarSubscriptions } from "../helpers/chains/stellar-subscriptions";
import { closedPortUrl } from "../helpers/chains/stellar-fixtures";

let s: StellarSubscriptionSetup;
let pool: ChainPool;
const UNIT = 10_000_000n;
const keys = () => ({ SUBSCRIPTION_STELLAR_OPERATOR_SECRET: s.operatorSecret });

beforeAll(() => {
  s = startStellarSubscriptions();
  pool = new ChainPool({ size: 2, jobTimeoutMs: 20_000, operatorKeys: keys() });
});
afterEach(() => {
  s.double.outage.clear();
  s.double.node.hold = false;
});
afterAll(async () => {
  await pool.close();
  s.stop();
});

/** A fresh payer with `balance` who approved 100 units, and a charge request of `amount` for them. */
async function subscriber(balance = 100n * UNIT, amount = 10n * UNIT): Promise<ChargeRequest & { payerKey: string }> {
  const payer = s.newPayer(balance);
  await s.approve(100n * UNIT, { payer });
  return { ...s.parties({ payer: payer.publicKey() }), tokenId: "sub", amount, reference: s.reference(), payerKey: payer.publicKey() };
}

const charge = (request: ChargeRequest, on = pool) => on.subscription({ op: "charge", request });
const balanceOf = (account: string) => s.double.balance(s.asset, account);

async function until(condition: () => boolean) {
  for (let i = 0; i < 500 && !condition(); i++) await Bun.sleep(10);
  expect(condition()).toBe(true);
}

/**
 * Starts a charge in a pool of its own and kills that pool once the transaction has reached the double:
 * the caller is left with an unknown outcome (worker_crashed), as after a crash or a lost connection.
 */
async function abandonAfterSend(request: ChargeRequest): Promise<OperationResult> {
  const doomed = new ChainPool({ size: 1, jobTimeoutMs: 20_000, operatorKeys: keys() });
  const sends = s.double.calls("sendTransaction");
  const result = charge(request, doomed);
  await until(() => s.double.calls("sendTransaction") > sends);
  await doomed.close();
  return result;
}

describe("the same reference never pulls twice", () => {
  test("a charge repeated after it landed answers the landed pull and sends nothing", async () => {
    const request = await subscriber();
    const first = await charge(request);
    expect(first.ok).toBe(true);
    const sends = s.double.calls("sendTransaction");
    expect(await charge(request)).toEqual(first);
    expect(s.double.calls("sendTransaction")).toBe(sends);
    expect(balanceOf(request.payerKey)).toBe(90n * UNIT);
  });

  test("the first pull landed but its answer was lost: the retry finds it instead of pulling again", async () => {
    const request = await subscriber();
    s.double.loseNextSendAnswer();
    s.double.outage.add("getTransaction");
    expect(await abandonAfterSend(request)).toMatchObject({ ok: false, reason: "worker_crashed" });
    s.double.outage.clear();
    expect(balanceOf(request.payerKey)).toBe(90n * UNIT); // it did land

    const sends = s.double.calls("sendTransaction");
    const retry = await charge(request);
    expect(retry).toMatchObject({ ok: true, amount: 10n * UNIT, tokenId: "sub" });
    expect(s.double.node.records.get((retry as { txHash: string }).txHash)?.status).toBe("SUCCESS");
    expect(s.double.calls("sendTransaction")).toBe(sends);
    expect(balanceOf(request.payerKey)).toBe(90n * UNIT);
  });

  test("while the first pull is pending, a retry cannot land a second one; after it lands, the retry finds it", async () => {
    const request = await subscriber();
    s.double.node.hold = true;
    expect(await abandonAfterSend(request)).toMatchObject({ ok: false, reason: "worker_crashed" });
    // The retry builds on the same sequence number as the pending transaction (its time bound comes from the
    // same latest ledger, so it is the very same transaction): the network takes one per sequence number, so
    // the retry can only wait for the first to land, and answers it.
    const sends = s.double.calls("sendTransaction");
    const retry = charge(request);
    await until(() => s.double.calls("sendTransaction") > sends);
    expect(balanceOf(request.payerKey)).toBe(100n * UNIT);
    s.double.node.hold = false;
    s.double.closeLedger();
    expect(await retry).toMatchObject({ ok: true, amount: 10n * UNIT });
    expect(balanceOf(request.payerKey)).toBe(90n * UNIT);
    expect(await charge(request)).toMatchObject({ ok: true, amount: 10n * UNIT });
    expect(balanceOf(request.payerKey)).toBe(90n * UNIT);
  });

  test("two workers charging one reference at once: one pull, one answer", async () => {
    const request = await subscriber();
    const [a, b] = await Promise.all([charge(request), charge(request)]);
    expect(a.ok).toBe(true);
    expect(b).toEqual(a);
    expect(balanceOf(request.payerKey)).toBe(90n * UNIT);
  });

  test("two workers charging different references at once: both land, one after the other's sequence number", async () => {
    const request = await subscriber();
    const results = await Promise.all([charge(request), charge({ ...request, reference: s.reference() })]);
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    expect(balanceOf(request.payerKey)).toBe(80n * UNIT);
  });

  test("a pull that fails on chain is reverted, moves nothing, and leaves the reference free", async () => {
    const request = await subscriber();
    const payeeBefore = balanceOf(s.payee.publicKey());
    s.double.node.hold = true;
    const sends = s.double.calls("sendTransaction");
    const pending: Promise<OperationResult> = charge(request);
    await until(() => s.double.calls("sendTransaction") > sends);
    s.double.fund(s.asset, request.payerKey, 0n); // the payer spends it all before the ledger closes
    s.double.node.hold = false;
    s.double.closeLedger();
    expect(await pending).toMatchObject({ ok: false, reason: "reverted" });
    expect(balanceOf(s.payee.publicKey())).toBe(payeeBefore);
    expect(await pool.subscription({ op: "lookup", request: { ...request, reference: request.reference } })).toEqual({ ok: true, operation: null });
  });
});

describe("configuration and availability", () => {
  test("without an operator key every operation is not_configured", async () => {
    const bare = new ChainPool({ size: 1, jobTimeoutMs: 10_000 });
    const parties = s.parties();
    const answers = await Promise.all([
      bare.subscription({ op: "readAutopay", request: parties }),
      bare.subscription({ op: "activate", request: { ...parties, amount: UNIT, periodSeconds: 60, reference: s.reference() } }),
      bare.subscription({ op: "charge", request: { ...parties, tokenId: "t", amount: UNIT, reference: s.reference() } }),
      bare.subscription({ op: "revoke", request: { ...parties, tokenId: "t", reference: s.reference() } }),
      bare.subscription({ op: "lookup", request: { ...parties, reference: s.reference() } }),
    ]);
    await bare.close();
    expect(answers.map((a) => (a.ok ? "ok" : a.reason))).toEqual(Array(5).fill("not_configured"));
  });

  test("a network without sorobanRpcUrl, or whose RPC serves another passphrase, is not_configured", async () => {
    const { sorobanRpcUrl: _, ...withoutRpc } = s.network;
    const noRpc = await pool.subscription({ op: "lookup", request: { ...s.parties({ network: withoutRpc }), reference: s.reference() } });
    const otherNetwork = { ...s.network, networkPassphrase: "Public Global Stellar Network ; September 2015" };
    const mismatch = await pool.subscription({ op: "readAutopay", request: s.parties({ network: otherNetwork }) });
    expect([noRpc, mismatch].map((a) => (a.ok ? "ok" : a.reason))).toEqual(["not_configured", "not_configured"]);
  });

  test("an RPC nobody answers is rpc_unavailable, and its address is not in the detail", async () => {
    const url = await closedPortUrl();
    const result = await pool.subscription({
      op: "lookup",
      request: { ...s.parties({ network: { ...s.network, sorobanRpcUrl: url } }), reference: s.reference() },
    });
    expect(result).toMatchObject({ ok: false, reason: "rpc_unavailable" });
    expect(JSON.stringify(result)).not.toContain(url);
  });

  test("a reference that is not 32 bytes of hex is refused without a transaction", async () => {
    const request = await subscriber();
    expect(await charge({ ...request, reference: "abc" })).toMatchObject({ ok: false, reason: "reverted" });
  });
});
