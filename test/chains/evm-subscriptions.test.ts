/**
 * The EVM subscription adapter on a real anvil node, through the chain worker pool as the service runs it: our
 * contract deployed from the checked-in artifact, a test USDC, payers that approved the contract and authorized a
 * payee. Balances, token ownership and the authorization's window are read back from the chain after each step.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { erc20Abi, type Abi, type Address, type Hex } from "viem";
import type { HDAccount } from "viem/accounts";
import { SUBSCRIPTIONS_ABI } from "../../src/chains/evm/subscription-contract";
import { ChainPool } from "../../src/chains/pool";
import type { ChainOperation } from "../../src/chains/subscription-types";
import { DAY, landed, newRef, subscriptionBedWithPool, type SubscriptionBed } from "../helpers/anvil-subscriptions";

let bed: SubscriptionBed;
let pool: ChainPool;
const PERIOD = 28 * DAY;
const TEN = 10_000_000n; // 10 USDC

let stop = async () => {};
beforeAll(async () => void ({ bed, pool, stop } = await subscriptionBedWithPool()), 30_000);
afterAll(() => stop());

const parties = (payer: Address, payee: Address = bed.payee) => ({ network: bed.network, token: bed.token, payer, payee });
const activate = (payer: Address, amount = TEN, reference = newRef(), payee?: Address) =>
  pool.subscription({ op: "activate", request: { ...parties(payer, payee), amount, periodSeconds: PERIOD, reference } });
const charge = (payer: Address, tokenId: string, amount = TEN, reference = newRef()) =>
  pool.subscription({ op: "charge", request: { ...parties(payer), tokenId, amount, reference } });
const read = <T>(functionName: string, args: readonly unknown[]) => bed.read<T>(functionName, args);
const authorization = async (payer: Address, payee: Address = bed.payee) => {
  const [periodAllowance, cap, spent, spentInWindow, periodSeconds, end, windowStart] = await read<bigint[]>("authorizations", [
    payer,
    payee,
    bed.usdc,
  ]);
  return { periodAllowance, cap, spent, spentInWindow, periodSeconds, end, windowStart };
};
const operatorNonce = () => bed.operatorNonce();
const blockTime = async (blockNumber: bigint) => (await bed.anvil.client.getBlock({ blockNumber })).timestamp;

async function subscribed(payer: HDAccount): Promise<ChainOperation> {
  return landed(await activate(payer.address));
}

describe("activate", () => {
  test("pulls the first payment, mints the token to the payer and opens the window; lookup finds it", async () => {
    const { account: payer, terms } = await bed.newPayer();
    const [payerBefore, payeeBefore] = await Promise.all([bed.balanceOf(payer.address), bed.balanceOf(bed.payee)]);
    const reference = newRef();
    const op = landed(await activate(payer.address, TEN, reference));
    expect(op.tokenId).toMatch(/^[1-9][0-9]*$/);
    expect(op.amount).toBe(TEN);
    expect([await bed.balanceOf(payer.address), await bed.balanceOf(bed.payee)]).toEqual([payerBefore - TEN, payeeBefore + TEN]);
    expect(await read<Address>("ownerOf", [BigInt(op.tokenId)])).toBe(payer.address);
    const [subPayer, subPayee, subToken, , revoked] = await read<unknown[]>("subscriptions", [BigInt(op.tokenId)]);
    expect([subPayer, subPayee, subToken, revoked]).toEqual([payer.address, bed.payee, bed.usdc, false]);
    const auth = await authorization(payer.address);
    expect(auth).toMatchObject({ spent: TEN, spentInWindow: TEN, windowStart: await blockTime(op.blockNumber) });
    const receipt = await bed.anvil.client.getTransactionReceipt({ hash: op.txHash as Hex });
    expect(receipt.blockNumber).toBe(op.blockNumber);
    expect(await pool.subscription({ op: "lookup", request: { ...parties(payer.address), reference } })).toEqual({ ok: true, operation: op });
    expect(await pool.subscription({ op: "readAutopay", request: parties(payer.address) })).toEqual({
      ok: true,
      installed: true,
      periodAllowance: terms.periodAllowance,
      periodSeconds: terms.periodSeconds,
      availableInWindow: terms.periodAllowance - TEN,
      remaining: terms.cap - TEN,
      expiresAt: terms.end,
      balance: payerBefore - TEN,
    });
  });

  test("a zero first charge (a trial) mints the token and moves nothing", async () => {
    const { account: payer } = await bed.newPayer();
    const before = await bed.balanceOf(payer.address);
    const op = landed(await activate(payer.address, 0n));
    expect(op.amount).toBe(0n);
    expect(await bed.balanceOf(payer.address)).toBe(before);
    expect(await read<Address>("ownerOf", [BigInt(op.tokenId)])).toBe(payer.address);
  });

  test("another team's payee cannot be pulled: the authorization names the payee", async () => {
    const { account: payer } = await bed.newPayer();
    const before = await bed.balanceOf(payer.address);
    expect(await activate(payer.address, TEN, newRef(), bed.otherPayee)).toMatchObject({ ok: false, reason: "autopay_not_installed" });
    expect(await bed.balanceOf(payer.address)).toBe(before);
  });

  test("an authorization whose window is longer than the plan's period is refused before any renewal could fail", async () => {
    const { account: payer } = await bed.newPayer({ periodSeconds: 31 * DAY });
    expect(await activate(payer.address)).toMatchObject({ ok: false, reason: "insufficient_allowance" });
  });

  test("too small an ERC-20 approval is insufficient_allowance, and none at all shows as not installed", async () => {
    const { account: payer } = await bed.newPayer();
    await bed.approve(payer, 5_000_000n);
    expect(await activate(payer.address)).toMatchObject({ ok: false, reason: "insufficient_allowance" });
    await bed.approve(payer, 0n);
    expect(await pool.subscription({ op: "readAutopay", request: parties(payer.address) })).toMatchObject({
      ok: true,
      installed: false,
      remaining: 0n,
    });
    const stranger = "0x000000000000000000000000000000000000dEaD";
    expect(await pool.subscription({ op: "readAutopay", request: parties(stranger) })).toMatchObject({
      ok: true,
      installed: false,
      periodAllowance: null,
      expiresAt: null,
    });
  });
});

describe("charge", () => {
  test("three renewals in successive windows, each one period after the activation's window on its grid", async () => {
    const { account: payer } = await bed.newPayer();
    const first = await subscribed(payer);
    const anchor = await blockTime(first.blockNumber);
    const before = await bed.balanceOf(payer.address);
    for (let renewal = 1; renewal <= 3; renewal++) {
      await bed.elapse(PERIOD);
      const op = landed(await charge(payer.address, first.tokenId));
      expect(op).toMatchObject({ tokenId: first.tokenId, amount: TEN });
      const auth = await authorization(payer.address);
      expect(auth).toMatchObject({ spent: TEN * BigInt(renewal + 1), spentInWindow: TEN, windowStart: anchor + BigInt(renewal * PERIOD) });
      expect(await bed.balanceOf(payer.address)).toBe(before - TEN * BigInt(renewal));
    }
  });

  test("readAutopay reports what the current window allows, also once the window of the last pull has ended", async () => {
    const { account: payer } = await bed.newPayer({ periodAllowance: 3n * TEN });
    const first = await subscribed(payer);
    const anchor = Number(await blockTime(first.blockNumber));
    const available = async () => (await pool.subscription({ op: "readAutopay", request: parties(payer.address) })) as { availableInWindow?: bigint };
    expect((await available()).availableInWindow).toBe(2n * TEN);
    await bed.elapseTo(anchor + PERIOD + 5 * DAY); // the stored window (2 x TEN left of it) ended; the next is untouched
    expect((await available()).availableInWindow).toBe(3n * TEN);
    landed(await charge(payer.address, first.tokenId));
    expect((await available()).availableInWindow).toBe(2n * TEN);
    const stranger = "0x000000000000000000000000000000000000dEaD";
    expect(await pool.subscription({ op: "readAutopay", request: parties(stranger) })).toMatchObject({ availableInWindow: 0n });
  });

  test("a renewal paid late by a dunning retry leaves the next calendar renewal its own window", async () => {
    const { account: payer } = await bed.newPayer();
    const first = await subscribed(payer);
    const anchor = Number(await blockTime(first.blockNumber));
    await bed.elapseTo(anchor + 31 * DAY + 7 * DAY); // renewal due on day 31, paid by the retry a week later
    landed(await charge(payer.address, first.tokenId));
    await bed.elapseTo(anchor + 59 * DAY); // the next renewal, a 28-day month later
    landed(await charge(payer.address, first.tokenId));
    expect(await charge(payer.address, first.tokenId)).toMatchObject({ ok: false, reason: "insufficient_allowance" });
  });

  test("a charge over the period allowance is refused before sending", async () => {
    const { account: payer } = await bed.newPayer();
    const first = await subscribed(payer);
    const nonce = await operatorNonce();
    expect(await charge(payer.address, first.tokenId, 1n)).toMatchObject({ ok: false, reason: "insufficient_allowance" });
    expect(await operatorNonce()).toBe(nonce);
  });

  test("over the lifetime cap is insufficient_allowance", async () => {
    const { account: payer } = await bed.newPayer({ cap: 15_000_000n });
    const first = await subscribed(payer);
    await bed.elapse(PERIOD);
    expect(await charge(payer.address, first.tokenId)).toMatchObject({ ok: false, reason: "insufficient_allowance" });
  });

  test("after the payer spends its balance the renewal is insufficient_balance, with no transaction", async () => {
    const { account: payer } = await bed.newPayer({}, 15_000_000n);
    const first = await subscribed(payer);
    await bed.write(payer, bed.usdc, erc20Abi, "transfer", [bed.otherPayee, 5_000_000n]);
    await bed.elapse(PERIOD);
    const nonce = await operatorNonce();
    expect(await charge(payer.address, first.tokenId)).toMatchObject({ ok: false, reason: "insufficient_balance" });
    expect(await operatorNonce()).toBe(nonce);
  });

  test("after the authorization's end the renewal is autopay_expired", async () => {
    const { account: payer } = await bed.newPayer({ end: (await bed.now()) + 40 * DAY });
    const first = await subscribed(payer);
    await bed.elapse(41 * DAY);
    expect(await charge(payer.address, first.tokenId)).toMatchObject({ ok: false, reason: "autopay_expired" });
  });

  test("the payer removing its authorization is autopay_not_installed", async () => {
    const { account: payer } = await bed.newPayer();
    const first = await subscribed(payer);
    await bed.write(payer, bed.contract, SUBSCRIPTIONS_ABI as Abi, "deauthorize", [bed.payee, bed.usdc]);
    await bed.elapse(PERIOD);
    expect(await charge(payer.address, first.tokenId)).toMatchObject({ ok: false, reason: "autopay_not_installed" });
  });
});
