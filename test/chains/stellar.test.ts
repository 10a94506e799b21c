/**
 * Stellar adapter against real signed transactions served by a fake Horizon. The fake only replays what
 * Horizon would answer; every verdict comes from the adapter decoding the XDR itself.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Account, Memo, MuxedAccount, Networks, Operation, type Transaction, type FeeBumpTransaction } from "@stellar/stellar-sdk/base";
import { createStellarAdapter, fromStroops, stellarAdapter, toStroops } from "../../src/chains/stellar";
import type { PaymentExpectation, PaymentVerdict, RefusalReason, TokenConfig } from "../../src/chains/types";
import {
  closedPortUrl,
  fakeUsdc,
  feeBumped,
  feeBumpResult,
  failedResult,
  hashOf,
  horizonRecord,
  merchant,
  pay,
  payer,
  serverError,
  signedTx,
  startFakeHorizon,
  stellarNetwork,
  stranger,
  successResult,
  USDC,
  usdc,
  XLM,
  xlm,
  type FakeHorizon,
} from "../helpers/chains/stellar-fixtures";

let horizon: FakeHorizon;
beforeAll(() => {
  horizon = startFakeHorizon();
});
afterAll(() => horizon.stop());

/** Publish `tx` on the fake Horizon (applied unless told otherwise) and return its hash and ledger. */
function publish(tx: Transaction | FeeBumpTransaction, resultXdr?: string, overrides: Record<string, unknown> = {}) {
  const result = resultXdr ?? ("innerTransaction" in tx ? feeBumpResult(tx) : successResult(tx));
  const record = horizonRecord(tx, result, overrides);
  const hash = hashOf(tx); // the URL Horizon files it under, whatever the body claims
  horizon.serve(hash, record);
  return { hash, ledger: BigInt(record.ledger) };
}

function expecting(txHash: string, fields: Partial<PaymentExpectation> = {}): PaymentExpectation {
  return { network: stellarNetwork(horizon.url), token: USDC, txHash, recipient: merchant.publicKey(), amount: 100_000_000n, ...fields };
}

function expectRefusal(verdict: PaymentVerdict, reason: RefusalReason) {
  expect(verdict.ok).toBe(false);
  if (verdict.ok) return;
  expect(verdict.reason).toBe(reason);
  expect(verdict.detail.length).toBeGreaterThan(0);
}

const verify = (expectation: PaymentExpectation) => stellarAdapter.verifyPayment(expectation);

describe("amount conversion", () => {
  test("decimal strings map to stroops exactly, beyond Number's integers", () => {
    expect(toStroops("10.0000000")).toBe(100_000_000n);
    expect(toStroops("12.5")).toBe(125_000_000n);
    expect(toStroops("0.0000001")).toBe(1n);
    expect(toStroops("922337203685.4775807")).toBe(9_223_372_036_854_775_807n);
    expect(fromStroops(9_223_372_036_854_775_807n)).toBe("922337203685.4775807");
    expect(fromStroops(1n)).toBe("0.0000001");
  });

  test("anything that is not a plain 7-decimal amount is rejected", () => {
    for (const bad of ["", "1e5", "-1", "1.23456789", " 1", "1.", ".5", "0x10"]) expect(() => toStroops(bad)).toThrow(RangeError);
  });
});

describe("verified payments", () => {
  test("a USDC payment to the recipient is proven, with index, amount, payer and ledger", async () => {
    const { hash, ledger } = publish(signedTx([pay(merchant.publicKey(), usdc, "10")]));
    expect(await verify(expecting(hash))).toEqual({
      ok: true,
      transfers: [{ transferIndex: 0, amount: 100_000_000n, payer: payer.publicKey(), payerDebited: true }],
      blockNumber: ledger,
      blockHash: null,
    });
  });

  test("a native XLM payment is proven", async () => {
    const { hash, ledger } = publish(signedTx([pay(merchant.publicKey(), xlm, "2.5")]));
    expect(await verify(expecting(hash, { token: XLM, amount: 25_000_000n }))).toEqual({
      ok: true,
      transfers: [{ transferIndex: 0, amount: 25_000_000n, payer: payer.publicKey(), payerDebited: true }],
      blockNumber: ledger,
      blockHash: null,
    });
  });

  test("exactly the amount and more than the amount both qualify; the amount paid is reported", async () => {
    const exact = publish(signedTx([pay(merchant.publicKey(), usdc, "10")]));
    const more = publish(signedTx([pay(merchant.publicKey(), usdc, "10.0000001")]));
    const exactVerdict = await verify(expecting(exact.hash));
    const moreVerdict = await verify(expecting(more.hash));
    expect(exactVerdict).toEqual({
      ok: true,
      transfers: [{ transferIndex: 0, amount: 100_000_000n, payer: payer.publicKey(), payerDebited: true }],
      blockNumber: exact.ledger,
      blockHash: null,
    });
    expect(moreVerdict).toEqual({
      ok: true,
      transfers: [{ transferIndex: 0, amount: 100_000_001n, payer: payer.publicKey(), payerDebited: true }],
      blockNumber: more.ledger,
      blockHash: null,
    });
  });

  test("the payment as the second operation is reported at index 1, with the operation's own source", async () => {
    const tx = signedTx([pay(stranger.publicKey(), usdc, "50"), pay(merchant.publicKey(), usdc, "10", stranger.publicKey())]);
    const { hash, ledger } = publish(tx);
    expect(await verify(expecting(hash))).toEqual({
      ok: true,
      transfers: [{ transferIndex: 1, amount: 100_000_000n, payer: stranger.publicKey(), payerDebited: true }],
      blockNumber: ledger,
      blockHash: null,
    });
  });

  test("every qualifying operation is listed, in order; the one too small is not", async () => {
    const tx = signedTx([pay(merchant.publicKey(), usdc, "10"), pay(merchant.publicKey(), usdc, "1"), pay(merchant.publicKey(), usdc, "20")]);
    const verdict = await verify(expecting(publish(tx).hash));
    expect(verdict.ok && verdict.transfers.map((t) => [t.transferIndex, t.amount])).toEqual([
      [0, 100_000_000n],
      [2, 200_000_000n],
    ]);
  });

  test("a payment to the recipient's muxed (M...) address counts for the recipient", async () => {
    const muxed = new MuxedAccount(new Account(merchant.publicKey(), "0"), "42").accountId();
    expect(muxed.startsWith("M")).toBe(true);
    const verdict = await verify(expecting(publish(signedTx([pay(muxed, usdc, "10")])).hash));
    expect(verdict.ok && verdict.transfers).toEqual([{ transferIndex: 0, amount: 100_000_000n, payer: payer.publicKey(), payerDebited: true }]);
  });

  test("a strict-receive path payment counts for its exact destination amount", async () => {
    const op = Operation.pathPaymentStrictReceive({
      sendAsset: xlm,
      sendMax: "100",
      destination: merchant.publicKey(),
      destAsset: usdc,
      destAmount: "10",
      path: [],
    });
    const verdict = await verify(expecting(publish(signedTx([op])).hash));
    expect(verdict.ok && verdict.transfers).toEqual([{ transferIndex: 0, amount: 100_000_000n, payer: payer.publicKey(), payerDebited: true }]);
  });

  test("the hash is accepted in upper case", async () => {
    const { hash } = publish(signedTx([pay(merchant.publicKey(), usdc, "10")]));
    expect((await verify(expecting(hash.toUpperCase()))).ok).toBe(true);
  });
});

describe("refusals from the operations", () => {
  test("same asset code from another issuer -> wrong_token", async () => {
    expectRefusal(await verify(expecting(publish(signedTx([pay(merchant.publicKey(), fakeUsdc, "10")])).hash)), "wrong_token");
  });

  test("XLM when USDC is expected, and USDC when XLM is expected -> wrong_token", async () => {
    expectRefusal(await verify(expecting(publish(signedTx([pay(merchant.publicKey(), xlm, "10")])).hash)), "wrong_token");
    const usdcTx = publish(signedTx([pay(merchant.publicKey(), usdc, "10")]));
    expectRefusal(await verify(expecting(usdcTx.hash, { token: XLM })), "wrong_token");
  });

  test("the token to someone else -> wrong_recipient", async () => {
    expectRefusal(await verify(expecting(publish(signedTx([pay(stranger.publicKey(), usdc, "10")])).hash)), "wrong_recipient");
  });

  test("one stroop short -> amount_too_low", async () => {
    expectRefusal(await verify(expecting(publish(signedTx([pay(merchant.publicKey(), usdc, "9.9999999")])).hash)), "amount_too_low");
  });

  test("precedence: wrong token beats wrong recipient beats too little", async () => {
    const mixed = signedTx([pay(merchant.publicKey(), fakeUsdc, "10"), pay(stranger.publicKey(), usdc, "10"), pay(merchant.publicKey(), usdc, "1")]);
    expectRefusal(await verify(expecting(publish(mixed).hash)), "amount_too_low");
    const noRecipient = signedTx([pay(merchant.publicKey(), fakeUsdc, "10"), pay(stranger.publicKey(), usdc, "10")]);
    expectRefusal(await verify(expecting(publish(noRecipient).hash)), "wrong_recipient");
  });
});

describe("refusals from the result", () => {
  test("txFailed in result_xdr -> failed, even though the JSON says successful: true", async () => {
    const tx = signedTx([pay(merchant.publicKey(), usdc, "10")]);
    expectRefusal(await verify(expecting(publish(tx, failedResult(tx), { successful: true }).hash)), "failed");
  });

  test("an applied result but successful: false in the JSON -> failed", async () => {
    const tx = signedTx([pay(merchant.publicKey(), usdc, "10")]);
    expectRefusal(await verify(expecting(publish(tx, successResult(tx), { successful: false }).hash)), "failed");
  });

  test("a fee bump whose inner transaction failed -> failed", async () => {
    const tx = feeBumped(signedTx([pay(merchant.publicKey(), usdc, "10")]));
    expectRefusal(await verify(expecting(publish(tx, feeBumpResult(tx, false)).hash)), "failed");
  });

  test("a result with a different number of operations than the envelope -> invalid_transaction", async () => {
    const tx = signedTx([pay(merchant.publicKey(), usdc, "10")]);
    const other = signedTx([pay(merchant.publicKey(), usdc, "10"), pay(merchant.publicKey(), usdc, "10")]);
    expectRefusal(await verify(expecting(publish(tx, successResult(other)).hash)), "invalid_transaction");
  });
});

describe("memo", () => {
  const payment = () => [pay(merchant.publicKey(), usdc, "10")];

  test("required and missing -> memo_mismatch", async () => {
    expectRefusal(await verify(expecting(publish(signedTx(payment())).hash, { memo: "inv_123" })), "memo_mismatch");
  });

  test("required and different -> memo_mismatch", async () => {
    expectRefusal(await verify(expecting(publish(signedTx(payment(), { memo: Memo.text("inv_999") })).hash, { memo: "inv_123" })), "memo_mismatch");
  });

  test("a hash memo never matches a text expectation -> memo_mismatch", async () => {
    const tx = signedTx(payment(), { memo: Memo.hash("ab".repeat(32)) });
    expectRefusal(await verify(expecting(publish(tx).hash, { memo: "ab".repeat(32) })), "memo_mismatch");
  });

  test("a matching text memo, and a matching id memo -> ok", async () => {
    const text = publish(signedTx(payment(), { memo: Memo.text("inv_123") }));
    expect((await verify(expecting(text.hash, { memo: "inv_123" }))).ok).toBe(true);
    const id = publish(signedTx(payment(), { memo: Memo.id("987654321") }));
    expect((await verify(expecting(id.hash, { memo: "987654321" }))).ok).toBe(true);
  });

  test("a memo is not required when none is expected", async () => {
    expect((await verify(expecting(publish(signedTx(payment(), { memo: Memo.text("hello") })).hash))).ok).toBe(true);
  });
});

describe("the XDR decides, not the JSON summary", () => {
  test("JSON claims the expected memo but the envelope carries another -> memo_mismatch", async () => {
    const tx = signedTx([pay(merchant.publicKey(), usdc, "10")], { memo: Memo.text("inv_999") });
    const { hash } = publish(tx, undefined, { memo_type: "text", memo: "inv_123", memo_bytes: Buffer.from("inv_123").toString("base64") });
    expectRefusal(await verify(expecting(hash, { memo: "inv_123" })), "memo_mismatch");
  });

  test("JSON denies the memo and misstates source, hash and op count, but the envelope proves the payment -> ok", async () => {
    const tx = signedTx([pay(merchant.publicKey(), usdc, "10")], { memo: Memo.text("inv_123") });
    const lies = {
      memo_type: "none",
      memo: undefined,
      source_account: stranger.publicKey(),
      hash: "00".repeat(32),
      id: "00".repeat(32),
      operation_count: 7,
    };
    const { hash, ledger } = publish(tx, undefined, lies);
    expect(await verify(expecting(hash, { memo: "inv_123" }))).toEqual({
      ok: true,
      transfers: [{ transferIndex: 0, amount: 100_000_000n, payer: payer.publicKey(), payerDebited: true }],
      blockNumber: ledger,
      blockHash: null,
    });
  });
});

describe("hash binding", () => {
  test("an envelope that hashes to something else than the asked hash -> invalid_transaction", async () => {
    const asked = signedTx([pay(merchant.publicKey(), usdc, "1")]);
    const served = signedTx([pay(merchant.publicKey(), usdc, "10")]);
    const record = horizonRecord(served, successResult(served), { hash: hashOf(asked), id: hashOf(asked) });
    horizon.serve(hashOf(asked), record);
    expectRefusal(await verify(expecting(hashOf(asked))), "invalid_transaction");
  });

  test("an envelope signed for the public network, served on testnet -> invalid_transaction", async () => {
    const mainnetTx = signedTx([pay(merchant.publicKey(), usdc, "10")], { passphrase: Networks.PUBLIC });
    expectRefusal(await verify(expecting(publish(mainnetTx).hash)), "invalid_transaction");
  });

  test("a malformed hash -> invalid_transaction without any HTTP call", async () => {
    const before = horizon.requests;
    for (const bad of ["", "abc", "zz".repeat(32), `0x${"ab".repeat(32)}`, "ab".repeat(33), `${"ab".repeat(31)}a`]) {
      expectRefusal(await verify(expecting(bad)), "invalid_transaction");
    }
    expect(horizon.requests).toBe(before);
  });

  test("an envelope_xdr that is not XDR -> invalid_transaction", async () => {
    const tx = signedTx([pay(merchant.publicKey(), usdc, "10")]);
    expectRefusal(await verify(expecting(publish(tx, undefined, { envelope_xdr: "bm90IHhkcg==" }).hash)), "invalid_transaction");
    const other = signedTx([pay(merchant.publicKey(), usdc, "10")]);
    expectRefusal(await verify(expecting(publish(other, "AAAA").hash)), "invalid_transaction");
  });
});

describe("fee bumps", () => {
  test("a fee bump wrapping a good payment -> ok by the outer hash, payer is the inner source", async () => {
    const tx = feeBumped(signedTx([pay(merchant.publicKey(), usdc, "10")]));
    const { hash, ledger } = publish(tx);
    expect(await verify(expecting(hash))).toEqual({
      ok: true,
      transfers: [{ transferIndex: 0, amount: 100_000_000n, payer: payer.publicKey(), payerDebited: true }],
      blockNumber: ledger,
      blockHash: null,
    });
  });

  test("... and by the inner hash, which Horizon also answers to", async () => {
    const tx = feeBumped(signedTx([pay(merchant.publicKey(), usdc, "10")]));
    const innerHash = hashOf(tx.innerTransaction);
    horizon.serve(innerHash, horizonRecord(tx, feeBumpResult(tx), { hash: innerHash, id: innerHash }));
    expect((await verify(expecting(innerHash))).ok).toBe(true);
  });

  test("a fee-bump envelope with a plain result -> invalid_transaction", async () => {
    const tx = feeBumped(signedTx([pay(merchant.publicKey(), usdc, "10")]));
    expectRefusal(await verify(expecting(publish(tx, successResult(tx.innerTransaction)).hash)), "invalid_transaction");
  });
});

describe("Horizon availability", () => {
  const someHash = "ab".repeat(32);

  test("unknown hash -> not_found (Horizon's 404 problem document)", async () => {
    expectRefusal(await verify(expecting("cd".repeat(32))), "not_found");
  });

  test("nothing listening -> rpc_unavailable", async () => {
    const network = stellarNetwork(await closedPortUrl());
    expectRefusal(await verify(expecting(someHash, { network })), "rpc_unavailable");
  });

  test("HTTP 500 -> rpc_unavailable", async () => {
    horizon.serve("ef".repeat(32), serverError);
    expectRefusal(await verify(expecting("ef".repeat(32))), "rpc_unavailable");
  });

  test("a 200 that is not JSON, or not a transaction -> rpc_unavailable", async () => {
    horizon.serve("12".repeat(32), () => new Response("<html>gateway</html>", { headers: { "content-type": "text/html" } }));
    expectRefusal(await verify(expecting("12".repeat(32))), "rpc_unavailable");
    horizon.serve("34".repeat(32), () => Response.json({ hello: "world" }));
    expectRefusal(await verify(expecting("34".repeat(32))), "rpc_unavailable");
  });

  test("no answer within the timeout -> rpc_unavailable", async () => {
    horizon.serve("56".repeat(32), () => Bun.sleep(1_000).then(() => new Response("{}")));
    const started = performance.now();
    expectRefusal(await createStellarAdapter({ timeoutMs: 100 }).verifyPayment(expecting("56".repeat(32))), "rpc_unavailable");
    expect(performance.now() - started).toBeLessThan(900);
  });

  test("a rpcUrl with a path prefix is kept", async () => {
    const { hash } = publish(signedTx([pay(merchant.publicKey(), usdc, "10")]));
    // The fake serves only at the root, so a kept prefix means a 404 -> not_found, not a silently dropped path.
    expectRefusal(await verify(expecting(hash, { network: stellarNetwork(`${horizon.url}/horizon`) })), "not_found");
  });
});

describe("configuration", () => {
  test("a network without a passphrase or a credit token without an issuer -> invalid_transaction, no HTTP call", async () => {
    const before = horizon.requests;
    const network = { ...stellarNetwork(horizon.url), networkPassphrase: undefined };
    expectRefusal(await verify(expecting("ab".repeat(32), { network })), "invalid_transaction");
    const token: TokenConfig = { symbol: "USDC", decimals: 7, assetCode: "USDC" };
    expectRefusal(await verify(expecting("ab".repeat(32), { token })), "invalid_transaction");
    expect(horizon.requests).toBe(before);
  });
});
