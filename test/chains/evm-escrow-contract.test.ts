/**
 * contracts/Escrow.sol itself, on anvil, called directly with viem (the service's flows are in test/escrow/): the
 * checked-in artifact is a reproducible build, and the rules the payer relies on hold whoever calls: funds move in only
 * with the payer's signature of that very reservation (EOA or ERC-1271), each payee's nonce once (another payee's
 * namespace is its own); the payee is paid only after the window, or early by the operator when the consent named a
 * delivery provider; a dispute only within the window and by the payer or the operator; only the
 * operator resolves a dispute. Every refusal leaves balances and the reservation as they were.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
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
import { compileEscrow } from "../../contracts/build";
import { deliveryProviderHash, escrowConsentTypedData, escrowKey } from "../../src/chains/evm/escrow-consent";
import { ESCROW_ABI, ESCROW_BYTECODE } from "../../src/chains/evm/escrow-contract";
import { account, compileFixture, deploy } from "../helpers/chains/anvil";
import { anvilEscrowBed, type EscrowBed } from "../helpers/chains/anvil-escrow";

let bed: EscrowBed;
const ABI = ESCROW_ABI as Abi;
const NO_PROOF = `0x${"00".repeat(32)}` as const;
const PROOF = `0x${"ab".repeat(32)}` as const;
const PROVIDER = "http";
const key = (nonce: string, payee: Address = bed.payee) => escrowKey(payee, nonce);

beforeAll(async () => {
  bed = await anvilEscrowBed();
}, 30_000);

afterAll(async () => {
  await bed?.stop();
});

const call = (from: HDAccount, functionName: string, args: readonly unknown[]) => bed.write(from, bed.contract, ABI, functionName, args);

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

/** Reserves a fresh consent of the bed's payer as the operator; returns its nonce. */
async function reserved(terms: Parameters<EscrowBed["consent"]>[1] = {}): Promise<string> {
  const { struct, signature, consent } = await bed.consent(bed.payer, terms);
  expect((await call(bed.operatorAccount, "reserve", [struct, signature])).status).toBe("success");
  return consent.requestNonce;
}

/** `revertOf` with the chain state compared before and after: a refusal changes nothing. */
async function refused(from: Address, functionName: string, args: readonly unknown[], nonce?: string): Promise<string> {
  const before = { balances: await bed.balances(), reservation: nonce ? await bed.reservation(nonce) : null };
  const error = await revertOf(from, functionName, args);
  expect({ balances: await bed.balances(), reservation: nonce ? await bed.reservation(nonce) : null }).toEqual(before);
  return error;
}

test("the checked-in artifact is exactly what a fresh compile of contracts/Escrow.sol produces", async () => {
  const fresh = await compileEscrow();
  expect(fresh.bytecode).toBe(ESCROW_BYTECODE);
  expect(fresh.abi).toEqual(ESCROW_ABI as unknown as unknown[]);
}, 120_000);

test("contracts/deploy.ts --contract escrow deploys the escrow artifact with the given owner and operator", async () => {
  const deployer = account(9);
  const args = ["contracts/deploy.ts", "--rpc-url", bed.anvil.rpcUrl, "--operator", bed.operatorAccount.address, "--contract", "escrow"];
  const proc = Bun.spawn([process.execPath, ...args], {
    env: { ...Bun.env, DEPLOYER_PRIVATE_KEY: toHex(deployer.getHdKey().privateKey!) },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect({ code, err }).toEqual({ code: 0, err: "" });
  const address = getAddress(out.trim());
  const at = (functionName: string) => bed.anvil.client.readContract({ address, abi: ABI, functionName }) as Promise<Address>;
  expect([await at("operator"), await at("owner")]).toEqual([bed.operatorAccount.address, deployer.address]);
  // The escrow, not the subscription contract: its consent type is the escrow's.
  expect(await at("CONSENT_TYPEHASH")).toBe(
    await bed.anvil.client.readContract({ address: bed.contract, abi: ESCROW_ABI, functionName: "CONSENT_TYPEHASH" }),
  );
});

test("the contract's consent digest is the one viem signs (the shared typed data matches the Solidity type)", async () => {
  const { struct, consent } = await bed.consent(bed.payer);
  const onChain = await bed.anvil.client.readContract({ address: bed.contract, abi: ESCROW_ABI, functionName: "consentDigest", args: [struct] });
  expect(onChain).toBe(hashTypedData(escrowConsentTypedData({ chainId: 31337, contract: bed.contract }, consent)));
  const args = [bed.payee, consent.requestNonce] as const;
  expect(await bed.anvil.client.readContract({ address: bed.contract, abi: ESCROW_ABI, functionName: "keyOf", args })).toBe(
    escrowKey(bed.payee, consent.requestNonce),
  );
});

test("reserve moves exactly the consented amount from the payer into the contract, under the nonce", async () => {
  const before = await bed.balances();
  const nonce = await reserved({ amount: 7_000_000n });
  expect(await bed.balances()).toEqual({ payer: before.payer - 7_000_000n, payee: before.payee, escrow: before.escrow + 7_000_000n });
  const r = await bed.reservation(nonce);
  expect(r).toMatchObject({ payer: getAddress(bed.payer.address), payee: bed.payee, token: bed.usdc, amount: 7_000_000n, status: "authorized" });
});

test("reserve refuses: not the operator, another signer, altered terms, a used nonce, an expired consent, a window already over", async () => {
  const op = bed.operatorAccount.address;
  const good = await bed.consent(bed.payer);
  expect(await refused(bed.payer.address, "reserve", [good.struct, good.signature])).toBe("NotOperator");
  const byOther = await bed.consent(bed.otherPayer, { payer: bed.payer.address });
  expect(await refused(op, "reserve", [byOther.struct, byOther.signature])).toBe("InvalidSignature");
  for (const change of [
    { amount: good.struct.amount + 1n },
    { payee: bed.owner.address },
    { requestNonce: "another" },
    { windowEnd: good.struct.windowEnd + 1n },
    { deliveryProvider: deliveryProviderHash(PROVIDER) },
  ])
    expect(await refused(op, "reserve", [{ ...good.struct, ...change }, good.signature])).toBe("InvalidSignature");
  const nonce = await reserved();
  const again = await bed.consent(bed.payer, { requestNonce: nonce });
  expect(await refused(op, "reserve", [again.struct, again.signature], nonce)).toBe("ReservationExists");
  // Another payee's namespace is its own: the same nonce reserves there (nobody squats a nonce another payee's payer signed).
  const elsewhere = await bed.consent(bed.payer, { requestNonce: nonce, payee: bed.owner.address });
  expect((await call(bed.operatorAccount, "reserve", [elsewhere.struct, elsewhere.signature])).status).toBe("success");
  expect((await bed.reservation(nonce, { payee: bed.owner.address })).status).toBe("authorized");
  const at = await bed.now();
  const expired = await bed.consent(bed.payer, { deadline: at - 1 });
  expect(await refused(op, "reserve", [expired.struct, expired.signature])).toBe("ConsentExpired");
  const over = await bed.consent(bed.payer, { windowEnd: at - 1 });
  expect(await refused(op, "reserve", [over.struct, over.signature])).toBe("InvalidConsent");
});

test("a smart account (ERC-1271) consents through its owner's signature", async () => {
  const owner = await bed.newPayer();
  const fixtures = await compileFixture("TestSmartAccount.sol");
  const wallet = getAddress(await deploy(bed.anvil, fixtures.TestSmartAccount!, [owner.address]));
  await bed.write(bed.owner, bed.usdc, bed.contracts.TestToken.abi, "mint", [wallet, 10_000_000n]);
  const approve = encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [bed.contract, 10_000_000n] });
  await bed.write(owner, wallet, fixtures.TestSmartAccount!.abi, "execute", [bed.usdc, approve]);
  const { struct, signature, consent } = await bed.consent(owner, { payer: wallet });
  expect((await call(bed.operatorAccount, "reserve", [struct, signature])).status).toBe("success");
  expect((await bed.reservation(consent.requestNonce)).status).toBe("authorized");
});

test("capture: only after the window, then by anyone; the payee gets the amount once", async () => {
  const nonce = await reserved({ windowEnd: (await bed.now()) + 100 });
  const k = key(nonce);
  expect(await refused(account(7).address, "capture", [k], nonce)).toBe("WindowOpen");
  await bed.elapse(101);
  const before = await bed.balances();
  expect((await call(account(7), "capture", [k])).status).toBe("success");
  expect(await bed.balances()).toEqual({ payer: before.payer, payee: before.payee + 5_000_000n, escrow: before.escrow - 5_000_000n });
  expect((await bed.reservation(nonce)).status).toBe("captured");
  expect(await refused(account(7).address, "capture", [k], nonce)).toBe("NotAuthorized");
});

test("captureEarly: only the operator, within the window, and only when the consent named a delivery provider", async () => {
  // No provider named (zero): the window is the payer's only protection; nobody captures early, not even the operator.
  const plain = await reserved();
  expect(await refused(bed.operatorAccount.address, "captureEarly", [key(plain), PROOF], plain)).toBe("NoEarlyCapture");
  expect((await bed.reservation(plain)).deliveryProvider).toBe(NO_PROOF);
  const nonce = await reserved({ deliveryProvider: PROVIDER });
  expect((await bed.reservation(nonce)).deliveryProvider).toBe(deliveryProviderHash(PROVIDER));
  const k = key(nonce);
  expect(await refused(bed.payer.address, "captureEarly", [k, PROOF], nonce)).toBe("NotOperator");
  const before = await bed.balances();
  expect((await call(bed.operatorAccount, "captureEarly", [k, PROOF])).status).toBe("success");
  expect(await bed.balances()).toEqual({ payer: before.payer, payee: before.payee + 5_000_000n, escrow: before.escrow - 5_000_000n });
  expect(await refused(bed.operatorAccount.address, "captureEarly", [k, PROOF], nonce)).toBe("NotAuthorized");
});

test("dispute: the payer or the operator, within the window, once; then only the operator resolves", async () => {
  const nonce = await reserved({ windowEnd: (await bed.now()) + 100 });
  const k = key(nonce);
  expect(await refused(account(7).address, "dispute", [k, PROOF], nonce)).toBe("NotPayerOrOperator");
  expect((await call(bed.payer, "dispute", [k, PROOF])).status).toBe("success");
  expect((await bed.reservation(nonce)).status).toBe("disputed");
  expect(await refused(bed.operatorAccount.address, "dispute", [k, PROOF], nonce)).toBe("NotAuthorized");
  await bed.elapse(101);
  // A disputed reservation is not captured by the window's end.
  expect(await refused(account(7).address, "capture", [k], nonce)).toBe("NotAuthorized");
  expect(await refused(bed.payer.address, "resolve", [k, true], nonce)).toBe("NotOperator");
  const before = await bed.balances();
  expect((await call(bed.operatorAccount, "resolve", [k, true])).status).toBe("success");
  expect(await bed.balances()).toEqual({ payer: before.payer + 5_000_000n, payee: before.payee, escrow: before.escrow - 5_000_000n });
  expect((await bed.reservation(nonce)).status).toBe("refunded");
  expect(await refused(bed.operatorAccount.address, "resolve", [k, false], nonce)).toBe("NotDisputed");
});

test("a dispute after the window is refused; a disputed reservation resolved for the payee is captured", async () => {
  const late = await reserved({ windowEnd: (await bed.now()) + 50 });
  await bed.elapse(51);
  expect(await refused(bed.operatorAccount.address, "dispute", [key(late), PROOF], late)).toBe("WindowClosed");
  const nonce = await reserved();
  const k = key(nonce);
  expect((await call(bed.operatorAccount, "dispute", [k, NO_PROOF])).status).toBe("success");
  const before = await bed.balances();
  expect((await call(bed.operatorAccount, "resolve", [k, false])).status).toBe("success");
  expect(await bed.balances()).toEqual({ payer: before.payer, payee: before.payee + 5_000_000n, escrow: before.escrow - 5_000_000n });
  expect((await bed.reservation(nonce)).status).toBe("captured");
});
