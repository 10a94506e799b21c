/**
 * The EVM subscription adapter on a real anvil node, through the chain worker pool as the service runs it: our
 * contract deployed from the checked-in artifact, a test USDC, payers that approved the contract and sign a consent
 * to each subscription. Balances, token ownership and each subscription's authorization are read back from the
 * chain after each step.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { erc20Abi, type Address, type Hex } from "viem";
import type { HDAccount } from "viem/accounts";
import { ChainPool } from "../../src/chains/pool";
import type { ChainOperation } from "../../src/chains/subscription-types";
import { DAY, landed, newRef, subscriptionBedWithPool, type SubscriptionBed, type Terms } from "../helpers/chains/anvil-subscriptions";

let bed: SubscriptionBed;
let pool: ChainPool;
const PERIOD = 28 * DAY;
const TEN = 10_000_000n; // 10 USDC

let stop = async () => {};
beforeAll(async () => void ({ bed, pool, stop } = await subscriptionBedWithPool()), 30_000);
afterAll(() => stop());

const parties = (payer: Address, payee: Address = bed.payee) => ({ network: bed.network, token: bed.token, payer, payee });
/** Activates with `payer`'s new consent to `terms` (naming `consentPayee`, by default the payee pulled to). */
async function activate(payer: HDAccount, amount = TEN, terms: Partial<Terms> = {}, payee?: Address, consentPayee = payee) {
  const { evm } = await bed.consent(payer, "acme", terms, { payee: consentPayee });
  return pool.subscription({
    op: "activate",
    request: { ...parties(payer.address, payee), amount, periodSeconds: PERIOD, reference: newRef(), consent: evm },
  });
}
const charge = (payer: Address, tokenId: string, amount = TEN, reference = newRef()) =>
  pool.subscription({ op: "charge", request: { ...parties(payer), tokenId, amount, reference } });
const read = <T>(functionName: string, args: readonly unknown[]) => bed.read<T>(functionName, args);
const authorization = (op: ChainOperation) => bed.authorization(BigInt(op.tokenId));
const autopayOf = (payer: Address, op: ChainOperation) =>
  pool.subscription({ op: "readAutopay", request: { ...parties(payer), tokenId: op.tokenId } });
const operatorNonce = () => bed.operatorNonce();
const blockTime = async (blockNumber: bigint) => (await bed.anvil.client.getBlock({ blockNumber })).timestamp;

async function subscribed(payer: HDAccount, terms: Partial<Terms> = {}): Promise<ChainOperation> {
  return landed(await activate(payer, TEN, terms));
}

describe("activate", () => {
  test("pulls the first payment, mints the token to the payer and opens the window; lookup finds it", async () => {
    const { account: payer, terms } = await bed.newPayer();
    const [payerBefore, payeeBefore] = await Promise.all([bed.balanceOf(payer.address), bed.balanceOf(bed.payee)]);
    const { evm } = await bed.consent(payer, "acme", terms);
    const reference = newRef();
    const request = { ...parties(payer.address), amount: TEN, periodSeconds: PERIOD, reference, consent: evm };
    const op = landed(await pool.subscription({ op: "activate", request }));
    expect(op.tokenId).toMatch(/^[1-9][0-9]*$/);
    expect(op.amount).toBe(TEN);
    expect([await bed.balanceOf(payer.address), await bed.balanceOf(bed.payee)]).toEqual([payerBefore - TEN, payeeBefore + TEN]);
    expect(await read<Address>("ownerOf", [BigInt(op.tokenId)])).toBe(payer.address);
    const [subPayer, subPayee, subToken, , revoked] = await read<unknown[]>("subscriptions", [BigInt(op.tokenId)]);
    expect([subPayer, subPayee, subToken, revoked]).toEqual([payer.address, bed.payee, bed.usdc, false]);
    expect(await authorization(op)).toMatchObject({ spent: TEN, spentInWindow: TEN, windowStart: await blockTime(op.blockNumber) });
    const receipt = await bed.anvil.client.getTransactionReceipt({ hash: op.txHash as Hex });
    expect(receipt.blockNumber).toBe(op.blockNumber);
    expect(await pool.subscription({ op: "lookup", request: { ...parties(payer.address), reference } })).toEqual({ ok: true, operation: op });
    expect(await autopayOf(payer.address, op)).toEqual({
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
    const op = landed(await activate(payer, 0n));
    expect(op.amount).toBe(0n);
    expect(await bed.balanceOf(payer.address)).toBe(before);
    expect(await read<Address>("ownerOf", [BigInt(op.tokenId)])).toBe(payer.address);
  });

  test("another team's payee cannot be pulled: the consent names the payee", async () => {
    const { account: payer } = await bed.newPayer();
    const before = await bed.balanceOf(payer.address);
    expect(await activate(payer, TEN, {}, bed.otherPayee, bed.payee)).toMatchObject({ ok: false, reason: "consent_invalid" });
    expect(await activate(payer, TEN, {})).toMatchObject({ ok: true });
    expect(await bed.balanceOf(payer.address)).toBe(before - TEN);
  });

  test("a consent whose window is longer than the plan's period is refused before any renewal could fail", async () => {
    const { account: payer } = await bed.newPayer();
    expect(await activate(payer, TEN, { periodSeconds: 31 * DAY })).toMatchObject({ ok: false, reason: "consent_invalid" });
  });

  test("too small an ERC-20 approval is insufficient_allowance, and none at all shows as not installed", async () => {
    const { account: payer } = await bed.newPayer();
    await bed.approve(payer, 5_000_000n);
    expect(await activate(payer)).toMatchObject({ ok: false, reason: "insufficient_allowance" });
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
      expect(await authorization(first)).toMatchObject({
        spent: TEN * BigInt(renewal + 1),
        spentInWindow: TEN,
        windowStart: anchor + BigInt(renewal * PERIOD),
      });
      expect(await bed.balanceOf(payer.address)).toBe(before - TEN * BigInt(renewal));
    }
  });

  test("readAutopay reports what the current window allows, also once the window of the last pull has ended", async () => {
    const { account: payer } = await bed.newPayer();
    const first = await subscribed(payer, { periodAllowance: 3n * TEN });
    const anchor = Number(await blockTime(first.blockNumber));
    const available = async () => (await autopayOf(payer.address, first)) as { availableInWindow?: bigint };
    expect((await available()).availableInWindow).toBe(2n * TEN);
    await bed.elapseTo(anchor + PERIOD + 5 * DAY); // the stored window (2 x TEN left of it) ended; the next is untouched
    expect((await available()).availableInWindow).toBe(3n * TEN);
    landed(await charge(payer.address, first.tokenId));
    expect((await available()).availableInWindow).toBe(2n * TEN);
    // Another payer's view of this subscription shows nothing installed.
    const stranger = "0x000000000000000000000000000000000000dEaD";
    expect(await autopayOf(stranger, first)).toMatchObject({ installed: false, availableInWindow: 0n, remaining: 0n });
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
    const { account: payer } = await bed.newPayer();
    const first = await subscribed(payer, { cap: 15_000_000n });
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
    const { account: payer } = await bed.newPayer();
    const first = await subscribed(payer, { end: (await bed.now()) + 40 * DAY });
    await bed.elapse(41 * DAY);
    expect(await charge(payer.address, first.tokenId)).toMatchObject({ ok: false, reason: "autopay_expired" });
  });

  test("the payer's ERC-20 approval withdrawn: readAutopay shows the subscription not installed, the charge is refused", async () => {
    const { account: payer } = await bed.newPayer();
    const first = await subscribed(payer);
    await bed.approve(payer, 0n);
    await bed.elapse(PERIOD);
    expect(await autopayOf(payer.address, first)).toMatchObject({ installed: false });
    expect(await charge(payer.address, first.tokenId)).toMatchObject({ ok: false, reason: "insufficient_allowance" });
  });

  test("one subscription's charges never draw on another's authorization", async () => {
    const { account: payer } = await bed.newPayer();
    const [a, b] = [await subscribed(payer, { cap: 20_000_000n }), await subscribed(payer, { cap: 50_000_000n })];
    await bed.elapse(PERIOD);
    landed(await charge(payer.address, a.tokenId));
    expect(await charge(payer.address, a.tokenId, TEN)).toMatchObject({ ok: false, reason: "insufficient_allowance" });
    expect([(await autopayOf(payer.address, a)).ok && (await autopayOf(payer.address, a)), await autopayOf(payer.address, b)]).toMatchObject([
      { remaining: 0n },
      { remaining: 40_000_000n },
    ]);
  });
});
