/**
 * contracts/Subscriptions.sol itself, on anvil, called directly with viem (the adapter's tests are in
 * evm-subscriptions.test.ts): the checked-in artifact is a reproducible build, and the rules the payer relies on hold
 * whoever calls: only the operator pulls, only with the payer's signed consent to that subscription (payee, company,
 * limits), each consent once, each subscription within its own authorization, each reference once, and the
 * subscription token never leaves the payer.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  hashTypedData,
  toHex,
  type Abi,
  type Address,
} from "viem";
import type { HDAccount } from "viem/accounts";
import { compileSubscriptions } from "../../contracts/build";
import { consentTypedData } from "../../src/chains/evm/consent";
import { SUBSCRIPTIONS_ABI, SUBSCRIPTIONS_BYTECODE } from "../../src/chains/evm/subscription-contract";
import { account, compileFixture, deploy } from "../helpers/chains/anvil";
import { anvilSubscriptionBed, DAY, newRef, type ConsentOptions, type SubscriptionBed, type Terms } from "../helpers/chains/anvil-subscriptions";

let bed: SubscriptionBed;
const ABI = SUBSCRIPTIONS_ABI as Abi;

beforeAll(async () => {
  bed = await anvilSubscriptionBed();
}, 30_000);

afterAll(async () => {
  await bed?.stop();
});

const PERIOD = BigInt(28 * DAY);
const call = (from: HDAccount, functionName: string, args: readonly unknown[]) => bed.write(from, bed.contract, ABI, functionName, args);
const read = <T>(functionName: string, args: readonly unknown[]) => bed.read<T>(functionName, args);

/** The custom error a call would revert with (simulated, nothing sent), or "none". */
async function revertOf(from: Address, functionName: string, args: readonly unknown[]): Promise<string> {
  try {
    await bed.anvil.client.simulateContract({ address: bed.contract, abi: ABI, functionName, args, account: from });
    return "none";
  } catch (error) {
    const revert = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
    return revert?.data?.errorName ?? `undecoded: ${(error as Error).message}`;
  }
}

/** The operator's `subscribe` arguments for `payer`'s new consent (to `company`, default "acme"). */
async function subscribeArgs(payer: HDAccount, amount: bigint, terms: Partial<Terms> = {}, o: ConsentOptions & { company?: string } = {}) {
  const { struct, evm } = await bed.consent(payer, o.company ?? "acme", terms, o);
  return [struct, evm.signature, amount, newRef()] as const;
}

/** Subscribes `payer` as the operator with its new consent; returns the new token id. */
async function subscribe(payer: HDAccount, amount: bigint, terms: Partial<Terms> = {}): Promise<bigint> {
  const receipt = await call(bed.operatorAccount, "subscribe", await subscribeArgs(payer, amount, terms));
  expect(receipt.status).toBe("success");
  return read<bigint>("lastTokenId", []);
}

test("the checked-in artifact is exactly what a fresh compile of contracts/Subscriptions.sol produces", async () => {
  const fresh = await compileSubscriptions();
  expect(fresh.bytecode).toBe(SUBSCRIPTIONS_BYTECODE);
  expect(fresh.abi).toEqual(SUBSCRIPTIONS_ABI as unknown as unknown[]);
}, 120_000);

test("contracts/deploy.ts deploys the artifact with the given owner and operator and prints its address", async () => {
  const deployer = account(9);
  const proc = Bun.spawn([process.execPath, "contracts/deploy.ts", "--rpc-url", bed.anvil.rpcUrl, "--operator", bed.operator], {
    env: { ...Bun.env, DEPLOYER_PRIVATE_KEY: toHex(deployer.getHdKey().privateKey!) },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect({ code, err }).toEqual({ code: 0, err: "" });
  const address = getAddress(out.trim());
  const at = (functionName: string) => bed.anvil.client.readContract({ address, abi: ABI, functionName }) as Promise<Address>;
  expect([await at("operator"), await at("owner")]).toEqual([bed.operator, deployer.address]);
});

describe("who may call what", () => {
  test("only the operator subscribes and charges; only the owner changes the operator", async () => {
    const { account: payer } = await bed.newPayer();
    expect(await revertOf(payer.address, "subscribe", await subscribeArgs(payer, 1n))).toBe("NotOperator");
    const tokenId = await subscribe(payer, 1n);
    expect(await revertOf(bed.payee, "charge", [tokenId, 1n, newRef()])).toBe("NotOperator");
    expect(await revertOf(bed.operator, "setOperator", [bed.payee])).toBe("OwnableUnauthorizedAccount");
    expect(await revertOf(bed.owner.address, "setOperator", [bed.payee])).toBe("none");
  });

  test("the subscription token stays with its payer: transfers are refused", async () => {
    const { account: payer } = await bed.newPayer();
    const tokenId = await subscribe(payer, 1n);
    expect(await revertOf(payer.address, "transferFrom", [payer.address, bed.otherPayee, tokenId])).toBe("NonTransferable");
    expect(await read<Address>("ownerOf", [tokenId])).toBe(payer.address);
  });

  test("revoke: a stranger cannot; the payer can, without spending a reference; no pull after", async () => {
    const { account: payer } = await bed.newPayer();
    const tokenId = await subscribe(payer, 1n);
    const ref = newRef();
    expect(await revertOf(bed.otherPayee, "revoke", [tokenId, ref])).toBe("NotPayerOrOperator");
    await call(payer, "revoke", [tokenId, ref]);
    expect((await read<unknown[]>("subscriptions", [tokenId]))[4]).toBe(true);
    expect(await revertOf(bed.operator, "charge", [tokenId, 1n, newRef()])).toBe("SubscriptionRevoked");
    // the payer's ref is not recorded, so it cannot block an operation the service is about to send under it
    expect((await read<unknown[]>("operationByRef", [ref]))[0]).toBe(0);
    expect(await revertOf(bed.operator, "revoke", [tokenId, ref])).toBe("none");
  });
});

describe("references", () => {
  test("each reference is used once across subscribe, charge and revoke; the zero reference is refused", async () => {
    const { account: payer } = await bed.newPayer();
    const args = await subscribeArgs(payer, 2n);
    const ref = args[3];
    await call(bed.operatorAccount, "subscribe", args);
    const tokenId = await read<bigint>("lastTokenId", []);
    const again = await subscribeArgs(payer, 1n);
    expect(await revertOf(bed.operator, "subscribe", [again[0], again[1], 1n, ref])).toBe("RefUsed");
    expect(await revertOf(bed.operator, "charge", [tokenId, 1n, ref])).toBe("RefUsed");
    expect(await revertOf(bed.operator, "revoke", [tokenId, ref])).toBe("RefUsed");
    expect(await revertOf(bed.operator, "charge", [tokenId, 1n, `0x${"0".repeat(64)}`])).toBe("InvalidRef");
    const [kind, id, amount, blockNumber] = await read<[number, bigint, bigint, bigint]>("operationByRef", [ref]);
    expect([kind, id, amount]).toEqual([1, tokenId, 2n]);
    expect(blockNumber).toBeGreaterThan(0n);
  });
});

describe("consent", () => {
  test("subscribe needs the payer's signature of these very terms: another payee, company, amount or signer is refused", async () => {
    const { account: payer } = await bed.newPayer();
    const [struct, signature] = await subscribeArgs(payer, 1n);
    for (const changed of [
      { payee: bed.otherPayee },
      { company: "initech" },
      { periodAllowance: struct.periodAllowance * 2n },
      { cap: struct.cap * 2n },
      { end: struct.end + 1n },
      { salt: newRef() },
    ])
      expect({ changed, error: await revertOf(bed.operator, "subscribe", [{ ...struct, ...changed }, signature, 1n, newRef()]) }).toEqual({
        changed,
        error: "InvalidSignature",
      });
    // Signed by another wallet for this payer's address.
    const forged = await subscribeArgs(payer, 1n, {}, { signer: account(9) });
    expect(await revertOf(bed.operator, "subscribe", forged)).toBe("InvalidSignature");
    expect(await revertOf(bed.operator, "subscribe", [struct, signature, 1n, newRef()])).toBe("none");
    // consentDigest is the digest the payer signs (integrators may read it to check their encoding).
    expect(await read<string>("consentDigest", [struct])).toBe(
      hashTypedData(
        consentTypedData(
          { chainId: 31337, contract: bed.contract, payer: payer.address, payee: bed.payee, token: bed.usdc },
          { ...struct, periodSeconds: Number(struct.periodSeconds), end: Number(struct.end), signature },
        ),
      ),
    );
  });

  test("a consent is used once: a second subscribe with it (any ref, any amount) is refused, nothing more is pulled", async () => {
    const { account: payer } = await bed.newPayer();
    const [struct, signature] = await subscribeArgs(payer, 1n);
    await call(bed.operatorAccount, "subscribe", [struct, signature, 3_000_000n, newRef()]);
    const balance = await bed.balanceOf(payer.address);
    expect(await revertOf(bed.operator, "subscribe", [struct, signature, 3_000_000n, newRef()])).toBe("ConsentUsed");
    expect(await revertOf(bed.operator, "subscribe", [struct, signature, 0n, newRef()])).toBe("ConsentUsed");
    expect(await read<boolean>("consentUsed", [payer.address, struct.salt])).toBe(true);
    expect(await bed.balanceOf(payer.address)).toBe(balance);
  });

  test("the payer cancels a consent it has not seen used: it can never be", async () => {
    const { account: payer } = await bed.newPayer();
    const args = await subscribeArgs(payer, 1n);
    await call(payer, "cancelConsent", [args[0].salt]);
    expect(await revertOf(bed.operator, "subscribe", args)).toBe("ConsentUsed");
  });

  test("terms that cannot be installed are refused: no allowance, no period, already ended", async () => {
    const { account: payer } = await bed.newPayer();
    for (const terms of [{ periodAllowance: 0n }, { periodSeconds: 0 }, { end: (await bed.now()) - 1 }])
      expect(await revertOf(bed.operator, "subscribe", await subscribeArgs(payer, 0n, terms))).toBe("InvalidAuthorization");
  });

  test("an ERC-1271 smart account consents by signature and is charged like any payer", async () => {
    const owner = account(8);
    const fixtures = await compileFixture("TestSmartAccount.sol");
    const wallet = getAddress(await deploy(bed.anvil, fixtures.TestSmartAccount!, [owner.address]));
    await bed.mint(wallet, 100_000_000n);
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [bed.contract, 2n ** 256n - 1n] });
    await bed.write(owner, wallet, fixtures.TestSmartAccount!.abi, "execute", [bed.usdc, approve]);
    const before = await bed.balanceOf(bed.payee);
    // The account's owner signs the typed data's hash; the account (ERC-1271) vouches for it.
    const args = await subscribeArgs(owner, 5_000_000n, {}, { payerAddress: wallet, signer: owner });
    await call(bed.operatorAccount, "subscribe", args);
    const tokenId = await read<bigint>("lastTokenId", []);
    expect(await read<Address>("ownerOf", [tokenId])).toBe(wallet);
    expect(await bed.balanceOf(bed.payee)).toBe(before + 5_000_000n);
    // Signed by anyone else: the account says no.
    expect(await revertOf(bed.operator, "subscribe", await subscribeArgs(owner, 1n, {}, { payerAddress: wallet, signer: account(9) }))).toBe(
      "InvalidSignature",
    );
  });
});

describe("authorization: one per subscription", () => {
  test("two subscriptions of one payer each draw on their own cap and window only", async () => {
    const { account: payer } = await bed.newPayer();
    const a = await subscribe(payer, 10_000_000n, { periodAllowance: 10_000_000n, cap: 20_000_000n });
    const b = await subscribe(payer, 4_000_000n, { periodAllowance: 5_000_000n, cap: 50_000_000n });
    // a's window is spent; b's still allows 1 USDC, and what b pulls never lowers a's cap.
    expect(await revertOf(bed.operator, "charge", [a, 1n, newRef()])).toBe("OverPeriodAllowance");
    expect(await revertOf(bed.operator, "charge", [b, 2_000_000n, newRef()])).toBe("OverPeriodAllowance");
    await call(bed.operatorAccount, "charge", [b, 1_000_000n, newRef()]);
    expect(await bed.authorization(a)).toMatchObject({ spent: 10_000_000n, cap: 20_000_000n });
    expect(await bed.authorization(b)).toMatchObject({ spent: 5_000_000n, cap: 50_000_000n });
    expect([await bed.chainRemaining(a), await bed.chainRemaining(b)]).toEqual([10_000_000n, 45_000_000n]);
  });

  test("the window: pulls add up to the period allowance; the next window starts one period after the first pull", async () => {
    const { account: payer } = await bed.newPayer();
    const tokenId = await subscribe(payer, 4_000_000n);
    const anchor = (await bed.authorization(tokenId)).windowStart;
    await call(bed.operatorAccount, "charge", [tokenId, 6_000_000n, newRef()]);
    expect(await revertOf(bed.operator, "charge", [tokenId, 1n, newRef()])).toBe("OverPeriodAllowance");
    await bed.elapse(28 * DAY);
    await call(bed.operatorAccount, "charge", [tokenId, 10_000_000n, newRef()]);
    expect(await bed.authorization(tokenId)).toMatchObject({ spent: 20_000_000n, spentInWindow: 10_000_000n, windowStart: anchor + PERIOD });
  });

  test("windows stay on the grid of the first pull: a renewal paid days late leaves the next calendar renewal its own window", async () => {
    // Funds for the activation only: the first renewal fails for want of balance and is paid by a dunning retry.
    const { account: payer } = await bed.newPayer({}, 10_000_000n);
    const tokenId = await subscribe(payer, 10_000_000n);
    const anchor = (await bed.authorization(tokenId)).windowStart;
    await bed.elapseTo(Number(anchor) + 31 * DAY); // the first renewal, a calendar month on
    expect(await revertOf(bed.operator, "charge", [tokenId, 10_000_000n, newRef()])).toBe("Error"); // the test token's require
    await bed.mint(payer.address, 30_000_000n);
    await bed.elapseTo(Number(anchor) + 38 * DAY); // the dunning retry a week later pays it
    await call(bed.operatorAccount, "charge", [tokenId, 10_000_000n, newRef()]);
    expect(await bed.authorization(tokenId)).toMatchObject({ spentInWindow: 10_000_000n, windowStart: anchor + PERIOD });
    // The next renewal, the shortest calendar month after the first (28 days), only 21 days after the late pull: a
    // window restarted at the late pull would still be spent.
    await bed.elapseTo(Number(anchor) + 59 * DAY);
    expect(await read<readonly bigint[]>("currentWindow", [tokenId])).toEqual([anchor + 2n * PERIOD, 0n]);
    await call(bed.operatorAccount, "charge", [tokenId, 10_000_000n, newRef()]);
    expect(await bed.authorization(tokenId)).toMatchObject({ spent: 30_000_000n, spentInWindow: 10_000_000n, windowStart: anchor + 2n * PERIOD });
    // A second full charge in that window is still refused, up to its last second.
    await bed.elapseTo(Number(anchor + 3n * PERIOD) - 10);
    expect(await revertOf(bed.operator, "charge", [tokenId, 10_000_000n, newRef()])).toBe("OverPeriodAllowance");
    await bed.elapseTo(Number(anchor + 3n * PERIOD));
    expect(await revertOf(bed.operator, "charge", [tokenId, 10_000_000n, newRef()])).toBe("none");
  });

  test("a zero pull (a trial's subscribe) does not anchor the windows: the first paid pull does", async () => {
    const { account: payer } = await bed.newPayer();
    const tokenId = await subscribe(payer, 0n);
    expect((await bed.authorization(tokenId)).windowStart).toBe(0n);
    await bed.elapse(14 * DAY);
    const receipt = await call(bed.operatorAccount, "charge", [tokenId, 10_000_000n, newRef()]);
    const paidAt = (await bed.anvil.client.getBlock({ blockNumber: receipt.blockNumber })).timestamp;
    expect(await bed.authorization(tokenId)).toMatchObject({ spentInWindow: 10_000_000n, windowStart: paidAt });
  });

  test("the cap and the end bind: over the cap, or after the end, nothing is pulled", async () => {
    const { account: payer } = await bed.newPayer();
    const tokenId = await subscribe(payer, 10_000_000n, { cap: 15_000_000n, end: (await bed.now()) + 40 * DAY });
    await bed.elapse(28 * DAY);
    expect(await revertOf(bed.operator, "charge", [tokenId, 10_000_000n, newRef()])).toBe("OverCap");
    await bed.elapse(12 * DAY);
    expect(await revertOf(bed.operator, "charge", [tokenId, 1n, newRef()])).toBe("AuthorizationExpired");
  });

  test("reauthorize: the payer alone renews its subscription's authorization, nothing spent under the new cap, the grid kept", async () => {
    const { account: payer } = await bed.newPayer();
    const tokenId = await subscribe(payer, 10_000_000n, { cap: 10_000_000n });
    const anchor = (await bed.authorization(tokenId)).windowStart;
    const terms = { cap: 30_000_000n, end: (await bed.now()) + 365 * DAY, periodAllowance: 10_000_000n, periodSeconds: 28 * DAY };
    const args = [tokenId, terms.periodAllowance, terms.periodSeconds, terms.cap, terms.end];
    expect(await revertOf(bed.operator, "reauthorize", args)).toBe("NotPayer");
    expect(await revertOf(bed.otherPayee, "reauthorize", args)).toBe("NotPayer");
    await bed.reauthorize(payer, tokenId, terms);
    expect(await bed.authorization(tokenId)).toMatchObject({ cap: 30_000_000n, spent: 0n, spentInWindow: 10_000_000n, windowStart: anchor });
    // Still one full pull per window: the renewal waits for the next one.
    expect(await revertOf(bed.operator, "charge", [tokenId, 10_000_000n, newRef()])).toBe("OverPeriodAllowance");
    await bed.elapse(28 * DAY);
    await call(bed.operatorAccount, "charge", [tokenId, 10_000_000n, newRef()]);
    expect(await bed.chainRemaining(tokenId)).toBe(20_000_000n);
    // A revoked subscription stays revoked.
    await call(payer, "revoke", [tokenId, newRef()]);
    expect(await revertOf(payer.address, "reauthorize", args)).toBe("SubscriptionRevoked");
  });
});
