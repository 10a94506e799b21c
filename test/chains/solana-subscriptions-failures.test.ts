/**
 * Solana subscriptions when things go wrong: no operator key, races between the adapter's read and its send,
 * transactions that fail on chain, answers lost on the way back, transactions that never land or are not
 * final yet. Whatever happens, a reference pulls at most once, and what it did is found from the chain.
 * Timing-sensitive cases run the adapter in process with short waits; the rest go through a ChainPool.
 */
import { describe, expect, test } from "bun:test";
import { Keypair } from "@solana/web3.js";
import { ChainPool } from "../../src/chains/pool";
import { encodeBase58 } from "../../src/chains/solana/base58";
import { createSolanaSubscriptions } from "../../src/chains/solana/subscriptions";
import type { ChainOperation, OperationResult, SubscriptionFailure } from "../../src/chains/subscription-types";
import { newReference, solanaSubscriptionsUnderTest, usdc } from "../helpers/chains/solana-subscriptions";

const { chain, pool } = solanaSubscriptionsUnderTest();
const adapter = createSolanaSubscriptions({ requestMs: 2_000, settleMs: 300, pollMs: 20 }, () => chain.operatorKey);

const activation = (payer: Keypair, amount: bigint, reference = newReference()) => ({
  ...chain.parties(payer),
  amount,
  periodSeconds: 2_419_200,
  reference,
});
const charging = (payer: Keypair, tokenId: string, amount: bigint, reference = newReference()) => ({
  ...chain.parties(payer),
  tokenId,
  amount,
  reference,
});

function landed(result: OperationResult): ChainOperation {
  if (!result.ok) throw new Error(`expected a landed operation, got ${result.reason}: ${result.detail}`);
  return result;
}

function expectRefusal(result: unknown, reason: SubscriptionFailure): void {
  expect(result).toEqual({ ok: false, reason, detail: expect.any(String) });
}

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 5_000) throw new Error("condition not reached");
    await Bun.sleep(5);
  }
}

/** A payer with an activated subscription (a 0-amount trial: nothing pulled, the token minted). */
async function subscriber(): Promise<{ payer: Keypair; tokenId: string }> {
  const payer = chain.newPayer(usdc(100), usdc(100));
  const trial = landed(await adapter.activate(activation(payer, 0n)));
  expect(trial.amount).toBe(0n);
  expect(chain.balance(payer.publicKey)).toBe(usdc(100));
  return { payer, tokenId: trial.tokenId };
}

describe("solana subscriptions: configuration", () => {
  test("without an operator key every operation is not_configured", async () => {
    const bare = new ChainPool({ size: 1, jobTimeoutMs: 20_000 });
    try {
      expectRefusal(await bare.subscription({ op: "readAutopay", request: chain.parties() }), "not_configured");
      expectRefusal(await bare.subscription({ op: "activate", request: activation(chain.payer, usdc(1)) }), "not_configured");
      expectRefusal(await bare.subscription({ op: "lookup", request: { ...chain.parties(), reference: newReference() } }), "not_configured");
    } finally {
      await bare.close();
    }
  });

  test("a key whose public half is not its own is not a key", async () => {
    const wrong = new Uint8Array([...chain.operator.secretKey.slice(0, 32), ...Keypair.generate().publicKey.toBytes()]);
    const misconfigured = createSolanaSubscriptions(undefined, () => encodeBase58(wrong));
    expectRefusal(await misconfigured.readAutopay(chain.parties()), "not_configured");
  });

  test("native SOL has no delegate: not_configured", async () => {
    const sol = { symbol: "SOL", decimals: 9, native: true };
    expectRefusal(await pool.subscription({ op: "readAutopay", request: { ...chain.parties(), token: sol } }), "not_configured");
  });

  test("an operator without SOL for rent and fees is not_configured, and nothing is sent", async () => {
    const poor = Keypair.generate();
    const broke = createSolanaSubscriptions(undefined, () => encodeBase58(poor.secretKey));
    const payer = chain.newPayer(usdc(10), usdc(10));
    chain.approve(payer, poor.publicKey, usdc(10));
    expectRefusal(await broke.activate(activation(payer, usdc(1))), "not_configured");
    expect(chain.balance(payer.publicKey)).toBe(usdc(10));
  });

  test("an endpoint that is down is rpc_unavailable for reads and pulls alike", async () => {
    const closed = Bun.serve({ port: 0, fetch: () => new Response() });
    const network = { ...chain.network, rpcUrl: `http://127.0.0.1:${closed.port}` };
    closed.stop(true);
    expectRefusal(await adapter.readAutopay({ ...chain.parties(), network }), "rpc_unavailable");
    expectRefusal(await adapter.activate({ ...activation(chain.payer, usdc(1)), network }), "rpc_unavailable");
  });

  test("lookup of a reference never used is null", async () => {
    expect(await pool.subscription({ op: "lookup", request: { ...chain.parties(), reference: newReference() } })).toEqual({
      ok: true,
      operation: null,
    });
  });
});

describe("solana subscriptions: races and failed transactions", () => {
  test("the payer revokes between the adapter's read and its send: refused by preflight, explained as not installed", async () => {
    const { payer, tokenId } = await subscriber();
    chain.rpc.before("getLatestBlockhash", () => chain.revoke(payer));
    const before = chain.rpc.executed.length;
    expectRefusal(await adapter.charge(charging(payer, tokenId, usdc(5))), "autopay_not_installed");
    expect(chain.rpc.executed.length).toBe(before);
  });

  test("a frozen payer account is refused before sending", async () => {
    const { payer, tokenId } = await subscriber();
    chain.freeze(payer.publicKey);
    expectRefusal(await adapter.charge(charging(payer, tokenId, usdc(5))), "reverted");
    chain.thaw(payer.publicKey);
  });

  test("a transfer the token program refuses is reverted, in preflight or on chain, and the reference stays unused", async () => {
    const { payer, tokenId } = await subscriber();
    const reference = newReference();
    chain.freeze(chain.payee.publicKey); // the issuer froze the team's account: no payer-side reason explains it
    try {
      expectRefusal(await adapter.charge(charging(payer, tokenId, usdc(5), reference)), "reverted");
      chain.rpc.preflight = false;
      const before = chain.rpc.executed.length;
      expectRefusal(await adapter.charge(charging(payer, tokenId, usdc(5), reference)), "reverted");
      expect(chain.rpc.executed.slice(before).map((tx) => tx.ok)).toEqual([false]); // landed, failed, paid its fee
    } finally {
      chain.rpc.preflight = true;
      chain.thaw(chain.payee.publicKey);
    }
    expect(await adapter.lookup({ ...chain.parties(payer), reference })).toEqual({ ok: true, operation: null });
    expect(landed(await adapter.charge(charging(payer, tokenId, usdc(5), reference))).amount).toBe(usdc(5));
  });

  // Two transactions for one reference, signed for different blockhashes (so not one duplicate transaction), both
  // sent before either ran: each creates the reference's account, so whichever runs second fails, in preflight or
  // on chain, and its adapter answers with the first one's charge.
  for (const preflight of [true, false]) {
    test(`two charges with one reference in flight at once pull once (preflight ${preflight ? "on" : "off"})`, async () => {
      const { payer, tokenId } = await subscriber();
      const request = charging(payer, tokenId, usdc(7));
      const before = chain.rpc.executed.length;
      chain.rpc.preflight = preflight;
      chain.rpc.parkSends();
      try {
        const first = adapter.charge(request);
        await until(() => chain.rpc.parkedSends === 1);
        chain.ledger.svm.expireBlockhash();
        const second = adapter.charge(request);
        await until(() => chain.rpc.parkedSends === 2);
        chain.rpc.unparkSends();
        const [a, b] = await Promise.all([first, second]);
        expect(landed(a)).toEqual(landed(b));
      } finally {
        chain.rpc.preflight = true;
        chain.rpc.unparkSends();
      }
      expect(chain.balance(payer.publicKey)).toBe(usdc(93));
      expect(chain.rpc.executed.slice(before).map((tx) => tx.ok)).toEqual(preflight ? [true] : [true, false]);
    });
  }
});

describe("solana subscriptions: unknown outcomes", () => {
  test("the send's answer is lost but the transaction ran: the adapter still finds it by its signature", async () => {
    const { payer, tokenId } = await subscriber();
    chain.rpc.loseNextSend("answer");
    const operation = landed(await adapter.charge(charging(payer, tokenId, usdc(4))));
    expect(operation.txHash).toBe(chain.rpc.executed.at(-1)!.signature);
    expect(chain.balance(payer.publicKey)).toBe(usdc(96));
  });

  test("a transaction that never lands expires: rpc_unavailable, nothing moved, and the same reference then pulls once", async () => {
    const { payer, tokenId } = await subscriber();
    const request = charging(payer, tokenId, usdc(4));
    chain.rpc.loseNextSend("transaction");
    expectRefusal(await adapter.charge(request), "rpc_unavailable");
    expect(await adapter.lookup(request)).toEqual({ ok: true, operation: null });
    expect(chain.balance(payer.publicKey)).toBe(usdc(100));
    expect(landed(await adapter.charge(request)).amount).toBe(usdc(4));
    expect(chain.balance(payer.publicKey)).toBe(usdc(96));
  });

  test("confirmed but not final: timeout, never a second pull; once final, lookup and the retry give the one charge", async () => {
    const { payer, tokenId } = await subscriber();
    const request = charging(payer, tokenId, usdc(6));
    chain.rpc.hold = true;
    try {
      expectRefusal(await adapter.charge(request), "timeout");
      const sentBefore = chain.rpc.executed.length;
      expectRefusal(await adapter.lookup(request), "timeout");
      expectRefusal(await adapter.charge(request), "timeout");
      expect(chain.rpc.executed.length).toBe(sentBefore);
    } finally {
      chain.rpc.release();
    }
    const retried = landed(await adapter.charge(request));
    expect(retried).toMatchObject({ amount: usdc(6), tokenId });
    expect(await adapter.lookup(request)).toEqual({ ok: true, operation: retried });
    expect(chain.balance(payer.publicKey)).toBe(usdc(94));
  });
});
