/**
 * contracts/Subscriptions.sol itself, on anvil, called directly with viem (the adapter's tests are in
 * evm-subscriptions.test.ts): the checked-in artifact is a reproducible build, and the rules the payer relies on hold
 * whoever calls: only the operator pulls, only within the payer's signed or sent authorization for that payee, each
 * reference once, and the subscription token never leaves the payer.
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
import { SUBSCRIPTIONS_ABI, SUBSCRIPTIONS_BYTECODE } from "../../src/chains/evm/subscription-contract";
import { account, compileFixture, deploy } from "../helpers/anvil";
import { anvilSubscriptionBed, DAY, newRef, type SubscriptionBed } from "../helpers/anvil-subscriptions";

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

/** The getter's tuple, by name. */
async function authorization(payer: Address) {
  type Tuple = [bigint, bigint, bigint, bigint, bigint, bigint, bigint];
  const [periodAllowance, cap, spent, spentInWindow, periodSeconds, end, windowStart] = await read<Tuple>("authorizations", [
    payer,
    bed.payee,
    bed.usdc,
  ]);
  return { periodAllowance, cap, spent, spentInWindow, periodSeconds, end, windowStart };
}

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

/** Subscribes `payer` as the operator; returns the new token id. */
async function subscribe(payer: Address, amount: bigint, ref = newRef()): Promise<bigint> {
  const receipt = await call(bed.operatorAccount, "subscribe", [payer, bed.payee, bed.usdc, amount, ref]);
  expect(receipt.status).toBe("success");
  return read<bigint>("lastTokenId", []);
}

const TYPES = {
  Authorization: [
    { name: "payer", type: "address" },
    { name: "payee", type: "address" },
    { name: "token", type: "address" },
    { name: "periodAllowance", type: "uint256" },
    { name: "periodSeconds", type: "uint64" },
    { name: "cap", type: "uint256" },
    { name: "end", type: "uint64" },
    { name: "nonce", type: "uint256" },
  ],
} as const;

async function terms(payee: Address = bed.payee) {
  return {
    payee,
    token: bed.usdc,
    periodAllowance: 10_000_000n,
    periodSeconds: BigInt(28 * DAY),
    cap: 50_000_000n,
    end: BigInt((await bed.now()) + 365 * DAY),
  };
}

function typedData(payer: Address, t: Awaited<ReturnType<typeof terms>>, nonce: bigint) {
  const domain = { name: "Subscriptions", version: "1", chainId: 31337, verifyingContract: bed.contract } as const;
  return { domain, types: TYPES, primaryType: "Authorization", message: { payer, ...t, nonce } } as const;
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
    expect(await revertOf(payer.address, "subscribe", [payer.address, bed.payee, bed.usdc, 1n, newRef()])).toBe("NotOperator");
    const tokenId = await subscribe(payer.address, 1n);
    expect(await revertOf(bed.payee, "charge", [tokenId, 1n, newRef()])).toBe("NotOperator");
    expect(await revertOf(bed.operator, "setOperator", [bed.payee])).toBe("OwnableUnauthorizedAccount");
    expect(await revertOf(bed.owner.address, "setOperator", [bed.payee])).toBe("none");
  });

  test("the subscription token stays with its payer: transfers are refused", async () => {
    const { account: payer } = await bed.newPayer();
    const tokenId = await subscribe(payer.address, 1n);
    expect(await revertOf(payer.address, "transferFrom", [payer.address, bed.otherPayee, tokenId])).toBe("NonTransferable");
    expect(await read<Address>("ownerOf", [tokenId])).toBe(payer.address);
  });

  test("revoke: a stranger cannot; the payer can, without spending a reference; no pull after", async () => {
    const { account: payer } = await bed.newPayer();
    const tokenId = await subscribe(payer.address, 1n);
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
    const ref = newRef();
    const tokenId = await subscribe(payer.address, 2n, ref);
    expect(await revertOf(bed.operator, "subscribe", [payer.address, bed.payee, bed.usdc, 1n, ref])).toBe("RefUsed");
    expect(await revertOf(bed.operator, "charge", [tokenId, 1n, ref])).toBe("RefUsed");
    expect(await revertOf(bed.operator, "revoke", [tokenId, ref])).toBe("RefUsed");
    expect(await revertOf(bed.operator, "charge", [tokenId, 1n, `0x${"0".repeat(64)}`])).toBe("InvalidRef");
    const [kind, id, amount, blockNumber] = await read<[number, bigint, bigint, bigint]>("operationByRef", [ref]);
    expect([kind, id, amount]).toEqual([1, tokenId, 2n]);
    expect(blockNumber).toBeGreaterThan(0n);
  });
});

describe("authorization", () => {
  test("the window: pulls add up to the period allowance; the next window starts one period after the first pull", async () => {
    const { account: payer } = await bed.newPayer();
    const tokenId = await subscribe(payer.address, 4_000_000n);
    const anchor = (await authorization(payer.address)).windowStart;
    await call(bed.operatorAccount, "charge", [tokenId, 6_000_000n, newRef()]);
    expect(await revertOf(bed.operator, "charge", [tokenId, 1n, newRef()])).toBe("OverPeriodAllowance");
    // a second subscription shares the payer's window: minting more tokens never multiplies the allowance
    expect(await revertOf(bed.operator, "subscribe", [payer.address, bed.payee, bed.usdc, 1n, newRef()])).toBe("OverPeriodAllowance");
    await bed.elapse(28 * DAY);
    await call(bed.operatorAccount, "charge", [tokenId, 10_000_000n, newRef()]);
    expect(await authorization(payer.address)).toMatchObject({ spent: 20_000_000n, spentInWindow: 10_000_000n, windowStart: anchor + PERIOD });
  });

  test("windows stay on the grid of the first pull: a renewal paid days late leaves the next calendar renewal its own window", async () => {
    // Funds for the activation only: the first renewal fails for want of balance and is paid by a dunning retry.
    const { account: payer } = await bed.newPayer({}, 10_000_000n);
    const tokenId = await subscribe(payer.address, 10_000_000n);
    const anchor = (await authorization(payer.address)).windowStart;
    await bed.elapseTo(Number(anchor) + 31 * DAY); // the first renewal, a calendar month on
    expect(await revertOf(bed.operator, "charge", [tokenId, 10_000_000n, newRef()])).toBe("Error"); // the test token's require
    await bed.mint(payer.address, 30_000_000n);
    await bed.elapseTo(Number(anchor) + 38 * DAY); // the dunning retry a week later pays it
    await call(bed.operatorAccount, "charge", [tokenId, 10_000_000n, newRef()]);
    expect(await authorization(payer.address)).toMatchObject({ spentInWindow: 10_000_000n, windowStart: anchor + PERIOD });
    // The next renewal, the shortest calendar month after the first (28 days), only 21 days after the late pull: a
    // window restarted at the late pull would still be spent.
    await bed.elapseTo(Number(anchor) + 59 * DAY);
    expect(await read<readonly bigint[]>("currentWindow", [payer.address, bed.payee, bed.usdc])).toEqual([anchor + 2n * PERIOD, 0n]);
    await call(bed.operatorAccount, "charge", [tokenId, 10_000_000n, newRef()]);
    expect(await authorization(payer.address)).toMatchObject({ spent: 30_000_000n, spentInWindow: 10_000_000n, windowStart: anchor + 2n * PERIOD });
    // A second full charge in that window is still refused, up to its last second.
    await bed.elapseTo(Number(anchor + 3n * PERIOD) - 10);
    expect(await revertOf(bed.operator, "charge", [tokenId, 10_000_000n, newRef()])).toBe("OverPeriodAllowance");
    await bed.elapseTo(Number(anchor + 3n * PERIOD));
    expect(await revertOf(bed.operator, "charge", [tokenId, 10_000_000n, newRef()])).toBe("none");
  });

  test("a zero pull (a trial's subscribe) does not anchor the windows: the first paid pull does", async () => {
    const { account: payer } = await bed.newPayer();
    const tokenId = await subscribe(payer.address, 0n);
    expect((await authorization(payer.address)).windowStart).toBe(0n);
    await bed.elapse(14 * DAY);
    const receipt = await call(bed.operatorAccount, "charge", [tokenId, 10_000_000n, newRef()]);
    const paidAt = (await bed.anvil.client.getBlock({ blockNumber: receipt.blockNumber })).timestamp;
    expect(await authorization(payer.address)).toMatchObject({ spentInWindow: 10_000_000n, windowStart: paidAt });
  });

  test("a new authorization starts with nothing spent; a zero allowance or deauthorize removes it", async () => {
    const { account: payer } = await bed.newPayer({ cap: 10_000_000n });
    await subscribe(payer.address, 10_000_000n);
    await bed.authorize(payer, bed.payee, { cap: 10_000_000n });
    expect((await read<bigint[]>("authorizations", [payer.address, bed.payee, bed.usdc]))[2]).toBe(0n);
    await bed.authorize(payer, bed.payee, { periodAllowance: 0n });
    expect(await revertOf(bed.operator, "subscribe", [payer.address, bed.payee, bed.usdc, 1n, newRef()])).toBe("NoAuthorization");
    await bed.authorize(payer, bed.payee);
    await call(payer, "deauthorize", [bed.payee, bed.usdc]);
    expect((await read<bigint[]>("authorizations", [payer.address, bed.payee, bed.usdc]))[0]).toBe(0n);
  });

  test("authorizeWithSignature installs an EOA's signed terms once, for the payee it names only", async () => {
    const payer = account(6);
    const t = await terms();
    const signature = await payer.signTypedData(typedData(payer.address, t, 0n));
    const other = { ...t, payee: bed.otherPayee };
    expect(await revertOf(bed.operator, "authorizeWithSignature", [payer.address, other, signature])).toBe("InvalidSignature");
    await call(bed.operatorAccount, "authorizeWithSignature", [payer.address, t, signature]);
    const [periodAllowance, cap, , , periodSeconds, end] = await read<bigint[]>("authorizations", [payer.address, bed.payee, bed.usdc]);
    expect([periodAllowance, cap, periodSeconds, end]).toEqual([t.periodAllowance, t.cap, t.periodSeconds, t.end]);
    expect(await revertOf(bed.operator, "authorizeWithSignature", [payer.address, t, signature])).toBe("InvalidSignature");
  });

  test("a signature not yet installed is void once the payer changes that authorization itself", async () => {
    const payer = account(7);
    const t = await terms();
    const signature = await payer.signTypedData(typedData(payer.address, t, 0n));
    await call(payer, "deauthorize", [bed.payee, bed.usdc]);
    expect(await revertOf(bed.operator, "authorizeWithSignature", [payer.address, t, signature])).toBe("InvalidSignature");
  });

  test("an ERC-1271 smart account authorizes by signature and is charged like any payer", async () => {
    const owner = account(8);
    const fixtures = await compileFixture("TestSmartAccount.sol");
    const wallet = getAddress(await deploy(bed.anvil, fixtures.TestSmartAccount!, [owner.address]));
    await bed.mint(wallet, 100_000_000n);
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [bed.contract, 2n ** 256n - 1n] });
    await bed.write(owner, wallet, fixtures.TestSmartAccount!.abi, "execute", [bed.usdc, approve]);
    const t = await terms();
    const signature = await owner.sign({ hash: hashTypedData(typedData(wallet, t, 0n)) });
    await call(bed.operatorAccount, "authorizeWithSignature", [wallet, t, signature]);
    const before = await bed.balanceOf(bed.payee);
    const tokenId = await subscribe(wallet, 5_000_000n);
    expect(await read<Address>("ownerOf", [tokenId])).toBe(wallet);
    expect(await bed.balanceOf(bed.payee)).toBe(before + 5_000_000n);
  });
});
