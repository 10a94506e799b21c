/**
 * The EVM subscription adapter's revoke, idempotency by reference, configuration refusals and one operator key
 * sending many transactions at once; on anvil, through the chain worker pool (see evm-subscriptions.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type Abi, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount, type HDAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { SUBSCRIPTIONS_ABI } from "../../src/chains/evm/subscription-contract";
import { ChainPool } from "../../src/chains/pool";
import type { EvmConsent } from "../../src/chains/subscription-types";
import { DAY, landed, newRef, subscriptionBedWithPool, type SubscriptionBed } from "../helpers/chains/anvil-subscriptions";

let bed: SubscriptionBed;
let pool: ChainPool;
const PERIOD = 28 * DAY;
const TEN = 10_000_000n;

let stop = async () => {};
beforeAll(async () => void ({ bed, pool, stop } = await subscriptionBedWithPool()), 30_000);
afterAll(() => stop());

const parties = (payer: Address) => ({ network: bed.network, token: bed.token, payer, payee: bed.payee });
/** Activates with `payer`'s consent (a new one unless `consent` is given: a retry sends the same). */
async function activate(payer: HDAccount, reference: string = newRef(), on = pool, consent?: EvmConsent) {
  const signed = consent ?? (await bed.consent(payer, "acme", { periodAllowance: 3n * TEN })).evm;
  return on.subscription({ op: "activate", request: { ...parties(payer.address), amount: TEN, periodSeconds: PERIOD, reference, consent: signed } });
}
const charge = (payer: Address, tokenId: string, reference: string = newRef()) =>
  pool.subscription({ op: "charge", request: { ...parties(payer), tokenId, amount: TEN, reference } });
const revoke = (payer: Address, tokenId: string, reference: string = newRef()) =>
  pool.subscription({ op: "revoke", request: { ...parties(payer), tokenId, reference } });
const lookup = (payer: Address, reference: string) => pool.subscription({ op: "lookup", request: { ...parties(payer), reference } });
const lastTokenId = () => bed.anvil.client.readContract({ address: bed.contract, abi: SUBSCRIPTIONS_ABI, functionName: "lastTokenId" });
const operatorNonce = () => bed.operatorNonce();

describe("revoke", () => {
  test("by the payer on chain: the next renewal is revoked", async () => {
    const { account: payer } = await bed.newPayer();
    const { tokenId } = landed(await activate(payer));
    await bed.write(payer, bed.contract, SUBSCRIPTIONS_ABI as Abi, "revoke", [BigInt(tokenId), newRef()]);
    await bed.elapse(PERIOD);
    expect(await charge(payer.address, tokenId)).toMatchObject({ ok: false, reason: "revoked" });
  });

  test("by the operator: lands once per reference, moves nothing, and the next renewal is revoked", async () => {
    const { account: payer } = await bed.newPayer();
    const { tokenId } = landed(await activate(payer));
    const reference = newRef();
    const op = landed(await revoke(payer.address, tokenId, reference));
    expect(op).toMatchObject({ tokenId, amount: 0n });
    expect(await revoke(payer.address, tokenId, reference)).toEqual(op);
    expect(await lookup(payer.address, reference)).toEqual({ ok: true, operation: op });
    await bed.elapse(PERIOD);
    expect(await charge(payer.address, tokenId)).toMatchObject({ ok: false, reason: "revoked" });
  });

  test("an unknown subscription token is refused without a transaction", async () => {
    const nonce = await operatorNonce();
    expect(await revoke(bed.payer.address, "999999")).toMatchObject({ ok: false, reason: "reverted" });
    expect(await revoke(bed.payer.address, "not-a-token")).toMatchObject({ ok: false, reason: "reverted" });
    expect(await operatorNonce()).toBe(nonce);
  });
});

describe("a reference moves money once", () => {
  test("activation and renewal repeated with their references return the first operation and move nothing", async () => {
    const { account: payer } = await bed.newPayer();
    const reference = newRef();
    const first = landed(await activate(payer, reference));
    await bed.elapse(PERIOD);
    const renewalRef = newRef();
    const renewal = landed(await charge(payer.address, first.tokenId, renewalRef));
    const [balance, tokens, nonce] = await Promise.all([bed.balanceOf(payer.address), lastTokenId(), operatorNonce()]);
    expect(await activate(payer, reference)).toEqual(first);
    expect(await charge(payer.address, first.tokenId, renewalRef)).toEqual(renewal);
    expect(await Promise.all([bed.balanceOf(payer.address), lastTokenId(), operatorNonce()])).toEqual([balance, tokens, nonce]);
  });

  test("a reference used by another operation is refused, not mistaken for this one", async () => {
    const { account: payer } = await bed.newPayer();
    const reference = newRef();
    const first = landed(await activate(payer, reference));
    expect(await charge(payer.address, first.tokenId, reference)).toMatchObject({ ok: false, reason: "reverted" });
  });

  test("two concurrent activations with one reference land once and both answer with it", async () => {
    const { account: payer } = await bed.newPayer({ periodAllowance: 3n * TEN });
    const reference = newRef();
    const before = await bed.balanceOf(payer.address);
    const [a, b] = await Promise.all([activate(payer, reference), activate(payer, reference)]);
    expect(landed(a)).toEqual(landed(b));
    expect(await bed.balanceOf(payer.address)).toBe(before - TEN);
  });

  test("a reference nothing used looks up as null", async () => {
    expect(await lookup(bed.payer.address, newRef())).toEqual({ ok: true, operation: null });
  });
});

describe("one operator key, many transactions", () => {
  test("concurrent activations each get their own nonce, with several workers in the pool", async () => {
    // The pool sends every subscription job of a family to one worker, which hands the key's nonces out in order.
    const wide = new ChainPool({ size: 3, jobTimeoutMs: 20_000, operatorKeys: bed.operatorKeys });
    try {
      const payers = [];
      for (let i = 0; i < 8; i++) payers.push((await bed.newPayer()).account);
      const nonce = await operatorNonce();
      const ops = (await Promise.all(payers.map((p) => activate(p, newRef(), wide)))).map(landed);
      expect(new Set(ops.map((op) => op.tokenId)).size).toBe(8);
      expect(await operatorNonce()).toBe(nonce + 8);
    } finally {
      await wide.close();
    }
  });

  test("a nonce used behind the worker's back is fetched again and the send retried once", async () => {
    const { account: payer } = await bed.newPayer();
    landed(await activate(payer)); // the worker now counts the operator's nonce itself
    const hash = await bed.anvil.client.sendTransaction({ account: bed.operatorAccount, to: bed.operator, value: 0n, chain: foundry });
    await bed.anvil.client.waitForTransactionReceipt({ hash });
    const { account: next } = await bed.newPayer();
    expect(await activate(next)).toMatchObject({ ok: true });
  });
});

describe("configuration", () => {
  test("without an operator key operations are not_configured, while reads still work", async () => {
    const keyless = new ChainPool({ size: 1, jobTimeoutMs: 20_000 });
    try {
      expect(await activate(bed.payer, newRef(), keyless)).toMatchObject({ ok: false, reason: "not_configured" });
      expect(await keyless.subscription({ op: "readAutopay", request: parties(bed.payer.address) })).toMatchObject({ ok: true, installed: true });
    } finally {
      await keyless.close();
    }
  });

  test("an operator key whose account holds no native coin is not_configured, sends nothing; funded, the same reference lands", async () => {
    const key = generatePrivateKey();
    const unfunded = privateKeyToAccount(key).address;
    const setOperator = (to: Address) => bed.write(bed.owner, bed.contract, SUBSCRIPTIONS_ABI as Abi, "setOperator", [to]);
    const { account: payer } = await bed.newPayer();
    const { tokenId } = landed(await activate(payer)); // by the funded operator
    await bed.elapse(PERIOD);
    const poor = new ChainPool({ size: 1, jobTimeoutMs: 20_000, operatorKeys: { SUBSCRIPTION_EVM_OPERATOR_KEY: key } });
    const renew = (reference: string) => poor.subscription({ op: "charge", request: { ...parties(payer.address), tokenId, amount: TEN, reference } });
    await setOperator(unfunded);
    try {
      expect(await bed.anvil.client.getBalance({ address: unfunded })).toBe(0n);
      const before = await bed.balanceOf(payer.address);
      const reference = newRef();
      expect(await renew(reference)).toMatchObject({ ok: false, reason: "not_configured" });
      const { account: newcomer } = await bed.newPayer();
      expect(await activate(newcomer, newRef(), poor)).toMatchObject({ ok: false, reason: "not_configured" });
      expect(await bed.anvil.client.getTransactionCount({ address: unfunded })).toBe(0);
      expect(await bed.balanceOf(payer.address)).toBe(before);
      await bed.anvil.client.setBalance({ address: unfunded, value: 10n ** 18n });
      expect(landed(await renew(reference)).amount).toBe(TEN);
      expect(await bed.balanceOf(payer.address)).toBe(before - TEN);
    } finally {
      await setOperator(bed.operator);
      await poor.close();
    }
  });

  test("a network without a subscription contract, or the native coin, is not_configured", async () => {
    const bare = { ...bed.network, subscriptionContract: undefined };
    const request = { network: bare, token: bed.token, payer: bed.payer.address, payee: bed.payee };
    expect(await pool.subscription({ op: "readAutopay", request })).toMatchObject({ ok: false, reason: "not_configured" });
    expect(await pool.subscription({ op: "lookup", request: { ...request, reference: newRef() } })).toMatchObject({
      ok: false,
      reason: "not_configured",
    });
    const native = { ...parties(bed.payer.address), token: { symbol: "ETH", decimals: 18, native: true } };
    expect(await pool.subscription({ op: "readAutopay", request: native })).toMatchObject({ ok: false, reason: "not_configured" });
  });

  test("an endpoint that does not answer is rpc_unavailable, with no URL in the detail", async () => {
    const down = { ...bed.network, rpcUrl: "http://127.0.0.1:9/secret-key" };
    const result = await pool.subscription({
      op: "charge",
      request: { network: down, token: bed.token, payer: bed.payer.address, payee: bed.payee, tokenId: "1", amount: 1n, reference: newRef() },
    });
    expect(result).toMatchObject({ ok: false, reason: "rpc_unavailable" });
    expect(JSON.stringify(result)).not.toContain("secret-key");
  });
});
