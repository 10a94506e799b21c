/**
 * Auto-topup on a real anvil node: a 6-decimal test USDC, Multicall3 at its canonical address (test/fixtures/
 * Multicall3.sol, deployed once and its runtime code placed there with anvil_setCode, as production finds the real
 * one), account 1 as the operator key, account 4 as the team's funding wallet holding USDC, and targets (accounts
 * 5 to 9, which can spend their own balance). The service reaches anvil through a counting proxy, so a test can
 * count the JSON-RPC calls a tick made (`rpc.calls`).
 */
import { erc20Abi, getAddress, toHex, type Address } from "viem";
import type { HDAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { MULTICALL3_ADDRESS } from "../../../src/lib/networks";
import type { NetworkConfig, TokenConfig } from "../../../src/chains/types";
import { account, compileFixture, deploy, startAnvil, testContracts } from "./anvil";

/** A JSON-RPC call the service sent, as the proxy saw it. */
export interface SeenCall {
  method: string;
  to: string | null;
}

/** An HTTP proxy in front of `target` that records every JSON-RPC call passing through (single or batched). */
export function countingRpcProxy(target: string) {
  const calls: SeenCall[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const body = await request.text();
      try {
        const parsed = JSON.parse(body);
        for (const call of Array.isArray(parsed) ? parsed : [parsed])
          calls.push({ method: call.method, to: call.method === "eth_call" ? String(call.params?.[0]?.to ?? "").toLowerCase() : null });
      } catch {}
      const answer = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
      return new Response(await answer.text(), { status: answer.status, headers: { "content-type": "application/json" } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, calls, stop: () => server.stop(true) };
}

export async function anvilTopupBed() {
  const anvil = await startAnvil();
  const proxy = countingRpcProxy(anvil.rpcUrl);
  const owner = account(0);
  const operator = account(1);
  const funder = account(4);
  const targets = [5, 6, 7, 8, 9].map(account);
  const contracts = await testContracts();
  const usdc = getAddress(await deploy(anvil, contracts.TestToken, ["Test USD", "USDC"]));
  const multicall = (await compileFixture("Multicall3.sol")).Multicall3!;
  const deployed = await deploy(anvil, multicall);
  await anvil.client.setCode({ address: MULTICALL3_ADDRESS, bytecode: (await anvil.client.getCode({ address: deployed }))! });
  const token: TokenConfig = { symbol: "USDC", decimals: 6, contract: usdc };
  const network: NetworkConfig = {
    id: "anvil",
    family: "evm",
    testnet: true,
    chainId: 31337,
    rpcUrl: proxy.url,
    confirmations: 1,
    tokens: [token, { symbol: "ETH", decimals: 18, native: true }],
  };
  const registryFile = `${process.cwd()}/.data/test/topups-${crypto.randomUUID()}.json`;
  await Bun.write(registryFile, JSON.stringify([network]));

  const write = async (from: HDAccount, functionName: "approve" | "transfer", args: readonly [Address, bigint]) =>
    anvil.client.waitForTransactionReceipt({
      hash: await anvil.client.writeContract({ address: usdc, abi: erc20Abi, functionName, args, account: from, chain: foundry }),
    });
  const mint = async (to: Address, amount: bigint) =>
    anvil.client.waitForTransactionReceipt({
      hash: await anvil.client.writeContract({
        address: usdc,
        abi: contracts.TestToken.abi,
        functionName: "mint",
        args: [to, amount],
        account: owner,
        chain: foundry,
      }),
    });
  const balanceOf = (holder: Address) => anvil.client.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [holder] });
  const allowance = () =>
    anvil.client.readContract({ address: usdc, abi: erc20Abi, functionName: "allowance", args: [funder.address, operator.address] });

  return {
    anvil,
    rpc: proxy,
    network,
    token,
    usdc,
    registryFile,
    operator,
    operatorKey: toHex(operator.getHdKey().privateKey!),
    funder,
    targets,
    mint,
    balanceOf,
    allowance,
    /** the funding wallet's consent: ERC-20 approve of the operator for `amount` */
    approve: (amount: bigint) => write(funder, "approve", [operator.address, amount]),
    /** a target spends `amount` of its own balance (to the token's owner) */
    spend: (target: HDAccount, amount: bigint) => write(target, "transfer", [owner.address, amount]),
    /** every target's and the funder's balance, for "the chain is unchanged" */
    balances: async () => Promise.all([funder, ...targets].map((a) => balanceOf(a.address))),
    /** eth_calls to Multicall3 since `from` (an index into rpc.calls) */
    multicalls: (from = 0) => proxy.calls.slice(from).filter((c) => c.to === MULTICALL3_ADDRESS.toLowerCase()).length,
    async stop() {
      proxy.stop();
      await anvil.stop();
    },
  };
}
