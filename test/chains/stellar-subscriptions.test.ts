/**
 * Stellar subscriptions through a real ChainPool (Bun Workers) against the Soroban RPC double: the payer
 * approves the operator on the asset's SAC with a transaction of their own, the adapter pulls with
 * transfer_from transactions it builds, simulates, signs and sends, and the double decodes and checks every
 * envelope before the balances move.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ChainPool } from "../../src/chains/pool";
import type { ChainOperation, OperationResult, SubscriptionFailure } from "../../src/chains/subscription-types";
import { type StellarSubscriptionSetup, startStellarSubscriptions } from "../helpers/chains/stellar-subscriptions";
import { chainNowMs } from "../helpers/chains/stellar-rpc-node";

let s: StellarSubscriptionSetup;
let pool: ChainPool;
const UNIT = 10_000_000n; // 7 decimals

beforeAll(() => {
  s = startStellarSubscriptions();
  pool = new ChainPool({ size: 2, jobTimeoutMs: 20_000, operatorKeys: { SUBSCRIPTION_STELLAR_OPERATOR_SECRET: s.operatorSecret } });
});
afterAll(async () => {
  await pool.close();
  s.stop();
});

function landed(result: OperationResult): ChainOperation {
  if (!result.ok) throw new Error(`expected a landed operation, got ${result.reason}: ${result.detail}`);
  return result;
}

function refused(result: { ok: boolean; reason?: SubscriptionFailure; detail?: string }, reason: SubscriptionFailure) {
  expect({ ok: result.ok, reason: result.reason }).toEqual({ ok: false, reason });
  expect(result.detail!.length).toBeGreaterThan(0);
}

describe("activation and renewals", () => {
  test("readAutopay before approval: nothing installed, the payer's balance", async () => {
    expect(await pool.subscription({ op: "readAutopay", request: s.parties() })).toEqual({
      ok: true,
      installed: false,
      periodAllowance: null,
      periodSeconds: null,
      remaining: 0n,
      expiresAt: null,
      balance: 1_000n * UNIT,
    });
  });

  test("activation pulls the first charge; three charges follow; chain state matches at every step", async () => {
    const payer = s.payer.publicKey();
    const operator = s.operator.publicKey();
    await s.approve(100n * UNIT, { ledgers: 10_000 });
    const autopay = await pool.subscription({ op: "readAutopay", request: s.parties() });
    expect(autopay).toMatchObject({ ok: true, installed: true, remaining: 100n * UNIT, periodAllowance: null, balance: 1_000n * UNIT });
    // ~10,000 ledgers at 5 s each
    const expiresAt = autopay.ok ? autopay.expiresAt! : 0;
    expect(Math.abs(expiresAt - (Math.floor(chainNowMs() / 1000) + 50_000))).toBeLessThan(60);

    const reference = s.reference();
    const activation = landed(
      await pool.subscription({ op: "activate", request: { ...s.parties(), amount: 10n * UNIT, periodSeconds: 2_419_200, reference } }),
    );
    expect(activation).toMatchObject({ tokenId: reference, amount: 10n * UNIT });
    expect(activation.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(activation.blockNumber).toBe(BigInt(s.double.node.latest));
    expect(s.double.balance(s.asset, payer)).toBe(990n * UNIT);
    expect(s.double.balance(s.asset, s.payee.publicKey())).toBe(10n * UNIT);

    const hashes = new Set([activation.txHash]);
    for (let period = 1; period <= 3; period++) {
      const charge = landed(
        await pool.subscription({ op: "charge", request: { ...s.parties(), tokenId: reference, amount: 10n * UNIT, reference: s.reference() } }),
      );
      expect(charge).toMatchObject({ tokenId: reference, amount: 10n * UNIT });
      hashes.add(charge.txHash);
      expect(s.double.balance(s.asset, payer)).toBe((990n - 10n * BigInt(period)) * UNIT);
      expect(s.double.balance(s.asset, s.payee.publicKey())).toBe((10n + 10n * BigInt(period)) * UNIT);
      expect(s.double.allowance(s.asset, payer, operator)?.amount).toBe((90n - 10n * BigInt(period)) * UNIT);
    }
    expect(hashes.size).toBe(4);
    expect(await pool.subscription({ op: "readAutopay", request: s.parties() })).toMatchObject({ remaining: 60n * UNIT, balance: 960n * UNIT });
    // Every landed transaction is the double's own SUCCESS record, signed by the operator.
    for (const hash of hashes) expect(s.double.node.records.get(hash)?.status).toBe("SUCCESS");
  });

  test("lookup finds an activation by its reference, and nothing for an unknown one", async () => {
    const payer = s.newPayer(50n * UNIT);
    await s.approve(20n * UNIT, { payer });
    const reference = s.reference();
    const parties = s.parties({ payer: payer.publicKey() });
    const activation = landed(
      await pool.subscription({ op: "activate", request: { ...parties, amount: 5n * UNIT, periodSeconds: 86_400, reference } }),
    );
    expect(await pool.subscription({ op: "lookup", request: { ...parties, reference } })).toEqual({ ok: true, operation: activation });
    // 25,000 ledgers later the pull is three getEvents scan windows (10,000 ledgers each) back.
    s.double.closeLedger(25_000);
    expect(await pool.subscription({ op: "lookup", request: { ...parties, reference } })).toEqual({ ok: true, operation: activation });
    expect(await pool.subscription({ op: "lookup", request: { ...parties, reference: s.reference() } })).toEqual({ ok: true, operation: null });
  });

  test("a trial activation (amount 0) sends nothing: tokenId is the reference, txHash empty", async () => {
    const payer = s.newPayer(5n * UNIT);
    await s.approve(5n * UNIT, { payer });
    const sends = s.double.calls("sendTransaction");
    const reference = s.reference();
    const result = await pool.subscription({
      op: "activate",
      request: { ...s.parties({ payer: payer.publicKey() }), amount: 0n, periodSeconds: 86_400, reference },
    });
    expect(result).toMatchObject({ ok: true, txHash: "", tokenId: reference, amount: 0n });
    expect(s.double.calls("sendTransaction")).toBe(sends);
  });

  test("revoke answers ok with no transaction: the operator cannot withdraw the payer's approval", async () => {
    const sends = s.double.calls("sendTransaction");
    const result = await pool.subscription({ op: "revoke", request: { ...s.parties(), tokenId: "t", reference: s.reference() } });
    expect(result).toEqual({ ok: true, txHash: "", tokenId: "t", amount: 0n, blockNumber: 0n });
    expect(s.double.calls("sendTransaction")).toBe(sends);
  });

  test("native XLM: the same pull on Asset.native()'s contract", async () => {
    const payer = s.newPayer(0n);
    await s.approve(3n * UNIT, { payer, asset: s.xlmAsset });
    const before = s.double.balance(s.xlmAsset, payer.publicKey())!;
    const parties = s.parties({ payer: payer.publicKey(), token: s.xlm });
    landed(await pool.subscription({ op: "charge", request: { ...parties, tokenId: "x", amount: 2n * UNIT, reference: s.reference() } }));
    expect(s.double.balance(s.xlmAsset, payer.publicKey())).toBe(before - 2n * UNIT);
  });
});

describe("refusals before any transaction", () => {
  const charge = (payer: string, amount: bigint) =>
    pool.subscription({ op: "charge", request: { ...s.parties({ payer }), tokenId: "t", amount, reference: s.reference() } });

  /** A fresh payer holding `balance` who approved `approved`; a charge of `amount` is refused for `reason` unsent. */
  async function refusedUnsent(balance: bigint, approved: bigint, amount: bigint, reason: SubscriptionFailure) {
    const payer = s.newPayer(balance);
    await s.approve(approved, { payer });
    const sends = s.double.calls("sendTransaction");
    refused(await charge(payer.publicKey(), amount), reason);
    expect(s.double.calls("sendTransaction")).toBe(sends);
    expect(s.double.balance(s.asset, payer.publicKey())).toBe(balance);
    return payer;
  }

  test("more than the remaining approval: insufficient_allowance, nothing sent", async () => {
    await refusedUnsent(100n * UNIT, 5n * UNIT, 6n * UNIT, "insufficient_allowance");
  });

  test("more than the payer holds: insufficient_balance from the simulation, nothing sent", async () => {
    const payer = await refusedUnsent(3n * UNIT, 50n * UNIT, 4n * UNIT, "insufficient_balance");
    expect(await pool.subscription({ op: "readAutopay", request: s.parties({ payer: payer.publicKey() }) })).toMatchObject({
      installed: true,
      remaining: 50n * UNIT,
      balance: 3n * UNIT,
    });
  });

  test("no approval at all: autopay_not_installed", async () => {
    const payer = s.newPayer(10n * UNIT);
    refused(await charge(payer.publicKey(), UNIT), "autopay_not_installed");
  });

  test("an approval at its last ledger: autopay_expired; once evicted it reads as never installed", async () => {
    const payer = s.newPayer(10n * UNIT);
    await s.approve(10n * UNIT, { payer, ledgers: 3 });
    const autopay = await pool.subscription({ op: "readAutopay", request: s.parties({ payer: payer.publicKey() }) });
    expect(autopay).toMatchObject({ ok: true, installed: true, remaining: 10n * UNIT });
    expect(autopay.ok && autopay.expiresAt! - Math.floor(chainNowMs() / 1000)).toBeLessThanOrEqual(15);
    const { liveUntil } = s.double.allowance(s.asset, payer.publicKey(), s.operator.publicKey())!;
    s.double.closeLedger(liveUntil - s.double.node.latest); // the latest ledger is now the approval's last one
    refused(await charge(payer.publicKey(), UNIT), "autopay_expired");
    s.double.closeLedger();
    // A temporary entry is gone after its TTL: Stellar cannot tell an expired approval from none.
    refused(await charge(payer.publicKey(), UNIT), "autopay_not_installed");
    expect(await pool.subscription({ op: "readAutopay", request: s.parties({ payer: payer.publicKey() }) })).toMatchObject({
      installed: false,
      remaining: 0n,
      expiresAt: null,
    });
  });

  test("a payer without a trustline: insufficient_balance; a payee without one: reverted", async () => {
    const payer = s.newPayer(10n * UNIT);
    await s.approve(10n * UNIT, { payer });
    const stranger = s.newPayer(0n);
    const balances = s.double.node.ledger.tokens.get(s.asset.contractId(s.double.passphrase))!.balances;
    balances.delete(stranger.publicKey());
    await s.approve(10n * UNIT, { payer: stranger });
    refused(await charge(stranger.publicKey(), UNIT), "insufficient_balance");
    expect(await pool.subscription({ op: "readAutopay", request: s.parties({ payer: stranger.publicKey() }) })).toMatchObject({ balance: 0n });
    refused(
      await pool.subscription({
        op: "charge",
        request: { ...s.parties({ payer: payer.publicKey(), payee: stranger.publicKey() }), tokenId: "t", amount: UNIT, reference: s.reference() },
      }),
      "reverted",
    );
  });
});
