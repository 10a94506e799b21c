/**
 * EVM verification against a real anvil node, with ERC-20s compiled by solc-js and deployed there.
 * Runs through the worker pool, as the service does, except where a case is about the adapter alone.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { encodeFunctionData, erc20Abi, parseEther, type Address, type Hex } from "viem";
import { foundry } from "viem/chains";
import { ChainPool } from "../../src/chains/pool";
import type { NetworkConfig, PaymentExpectation, TokenConfig } from "../../src/chains/types";
import { account, deploy, startAnvil, testContracts, type Anvil } from "../helpers/chains/anvil";

let anvil: Anvil;
let pool: ChainPool;
let usdc: Address;
let other: Address;
let impostor: Address;
let network: NetworkConfig;
let token: TokenConfig;
const payer = account(1);
const merchant = account(2).address;
const stranger = account(3).address;

beforeAll(async () => {
  anvil = await startAnvil();
  const contracts = await testContracts();
  usdc = await deploy(anvil, contracts.TestToken, ["Test USD", "USDC"]);
  other = await deploy(anvil, contracts.TestToken, ["Other USD", "OUSD"]);
  impostor = await deploy(anvil, contracts.ImpostorToken);
  for (const t of [usdc, other])
    await mine(
      await anvil.client.writeContract({
        address: t,
        abi: contracts.TestToken.abi,
        functionName: "mint",
        args: [payer.address, 1_000_000_000n],
        account: account(0),
        chain: foundry,
      }),
    );
  token = { symbol: "USDC", decimals: 6, contract: usdc };
  network = {
    id: "anvil",
    family: "evm",
    testnet: true,
    chainId: 31337,
    rpcUrl: anvil.rpcUrl,
    confirmations: 3,
    tokens: [token, { symbol: "ETH", decimals: 18, native: true }],
  };
  pool = new ChainPool({ size: 2, jobTimeoutMs: 15_000 });
}, 30_000);

afterAll(async () => {
  await pool?.close();
  await anvil?.stop();
});

async function mine(hash: Hex) {
  await anvil.client.waitForTransactionReceipt({ hash });
  return hash;
}

/** Sends `amount` of an ERC-20 from the payer; `gas` set skips estimation so a reverting call still lands. */
function pay(contract: Address, to: Address, amount: bigint, gas?: bigint) {
  return anvil.client
    .writeContract({ address: contract, abi: erc20Abi, functionName: "transfer", args: [to, amount], account: payer, chain: foundry, gas })
    .then(mine);
}

const expect$ = (txHash: string, over: Partial<PaymentExpectation> = {}): PaymentExpectation => ({
  network,
  token,
  txHash,
  recipient: merchant,
  amount: 25_000_000n,
  ...over,
});
const confirm = (blocks = 2) => anvil.client.mine({ blocks });

describe("EVM payment verification on anvil", () => {
  test("a good ERC-20 payment with enough confirmations is proven, with its log index and payer", async () => {
    const hash = await pay(usdc, merchant, 25_000_000n);
    await confirm();
    const verdict = await pool.verifyPayment(expect$(hash));
    expect(verdict.ok).toBe(true);
    if (!verdict.ok) return;
    expect(verdict.transfers).toEqual([{ transferIndex: 0, amount: 25_000_000n, payer: payer.address, payerDebited: true }]);
    const receipt = await anvil.client.getTransactionReceipt({ hash });
    expect(verdict.blockNumber).toBe(receipt.blockNumber);
    expect(verdict.blockHash).toBe(receipt.blockHash);
  });

  test("paying more than asked is proven with the amount actually paid", async () => {
    const hash = await pay(usdc, merchant, 30_000_000n);
    await confirm();
    const verdict = await pool.verifyPayment(expect$(hash));
    expect(verdict.ok && verdict.transfers[0]!.amount).toBe(30_000_000n);
  });

  test("an impostor contract emitting the same Transfer event is wrong_token", async () => {
    const hash = await pay(impostor, merchant, 25_000_000n);
    await confirm();
    expect(await pool.verifyPayment(expect$(hash))).toMatchObject({ ok: false, reason: "wrong_token" });
  });

  test("a real ERC-20 that is not the accepted one is wrong_token", async () => {
    const hash = await pay(other, merchant, 25_000_000n);
    await confirm();
    expect(await pool.verifyPayment(expect$(hash))).toMatchObject({ ok: false, reason: "wrong_token" });
  });

  test("the accepted token sent to someone else is wrong_recipient", async () => {
    const hash = await pay(usdc, stranger, 25_000_000n);
    await confirm();
    expect(await pool.verifyPayment(expect$(hash))).toMatchObject({ ok: false, reason: "wrong_recipient" });
  });

  test("one base unit short is amount_too_low", async () => {
    const hash = await pay(usdc, merchant, 24_999_999n);
    await confirm();
    expect(await pool.verifyPayment(expect$(hash))).toMatchObject({ ok: false, reason: "amount_too_low" });
  });

  test("a reverted transaction is failed", async () => {
    const hash = await pay(usdc, merchant, 10n ** 30n, 100_000n); // more than the payer holds: the token reverts
    expect((await anvil.client.getTransactionReceipt({ hash })).status).toBe("reverted");
    await confirm();
    expect(await pool.verifyPayment(expect$(hash))).toMatchObject({ ok: false, reason: "failed" });
  });

  test("a payment with fewer confirmations than the network needs is not_final, then proven once they arrive", async () => {
    const hash = await pay(usdc, merchant, 25_000_000n);
    expect(await pool.verifyPayment(expect$(hash))).toMatchObject({ ok: false, reason: "not_final", detail: "1 of 3 confirmations" });
    await confirm(1);
    expect(await pool.verifyPayment(expect$(hash))).toMatchObject({ ok: false, reason: "not_final" });
    await confirm(1);
    expect((await pool.verifyPayment(expect$(hash))).ok).toBe(true);
  });

  test("a reorg before finality that drops the payment leaves it not_found, never proven", async () => {
    const snapshot = await anvil.client.snapshot();
    const hash = await pay(usdc, merchant, 25_000_000n);
    expect(await pool.verifyPayment(expect$(hash))).toMatchObject({ ok: false, reason: "not_final" });
    await anvil.client.revert({ id: snapshot }); // the chain forgets the payment's block
    await confirm(5); // and grows past the old height on another branch
    expect(await pool.verifyPayment(expect$(hash))).toMatchObject({ ok: false, reason: "not_found" });
  });

  test("a payment dropped by a reorg and mined again in another block is judged on its new block", async () => {
    const request = await anvil.client.prepareTransactionRequest({
      to: usdc,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [merchant, 25_000_000n] }),
      account: payer,
      chain: foundry,
    });
    const raw = await payer.signTransaction(request as never);
    const hash = await mine(await anvil.client.sendRawTransaction({ serializedTransaction: raw }));
    const first = await anvil.client.getTransactionReceipt({ hash });
    await anvil.client.request({ method: "anvil_reorg" as never, params: [1, []] as never }); // replaces the last block without it
    expect(await pool.verifyPayment(expect$(hash))).toMatchObject({ ok: false, reason: "not_found" });
    await mine(await anvil.client.sendRawTransaction({ serializedTransaction: raw })); // the same signed transaction lands again
    await confirm();
    const verdict = await pool.verifyPayment(expect$(hash));
    expect(verdict.ok).toBe(true);
    if (!verdict.ok) return;
    expect(verdict.blockHash).not.toBe(first.blockHash);
    expect(verdict.blockHash).toBe((await anvil.client.getBlock({ blockNumber: verdict.blockNumber })).hash);
  });

  test("a native coin payment must be exact", async () => {
    const send = (value: bigint) => anvil.client.sendTransaction({ to: merchant, value, account: payer, chain: foundry }).then(mine);
    const eth = network.tokens[1]!;
    const exact = await send(parseEther("0.5"));
    const short = await send(parseEther("0.4"));
    await confirm();
    const good = await pool.verifyPayment(expect$(exact, { token: eth, amount: parseEther("0.5") }));
    expect(good.ok && good.transfers[0]).toEqual({ transferIndex: 0, amount: parseEther("0.5"), payer: payer.address, payerDebited: true });
    expect(await pool.verifyPayment(expect$(short, { token: eth, amount: parseEther("0.5") }))).toMatchObject({
      ok: false,
      reason: "amount_too_low",
    });
  });

  test("an unknown hash is not_found and a malformed one invalid_transaction", async () => {
    expect(await pool.verifyPayment(expect$(`0x${"ab".repeat(32)}`))).toMatchObject({ ok: false, reason: "not_found" });
    expect(await pool.verifyPayment(expect$("0x1234"))).toMatchObject({ ok: false, reason: "invalid_transaction" });
  });

  test("an endpoint serving another chain than the registry says is rpc_unavailable, never a proof", async () => {
    const hash = await pay(usdc, merchant, 25_000_000n);
    await confirm();
    const mislabelled = { ...network, chainId: 1 }; // a test node configured under a main network's chain id
    expect(await pool.verifyPayment(expect$(hash, { network: mislabelled }))).toEqual({
      ok: false,
      reason: "rpc_unavailable",
      detail: "The endpoint of anvil serves chain 31337, not 1",
    });
  });

  test("an RPC endpoint that is down is rpc_unavailable, promptly", async () => {
    const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = probe.port;
    probe.stop(true);
    const down = { ...network, rpcUrl: `http://127.0.0.1:${port}` };
    expect(await pool.verifyPayment(expect$(`0x${"cd".repeat(32)}`, { network: down }))).toMatchObject({ ok: false, reason: "rpc_unavailable" });
  });
});
