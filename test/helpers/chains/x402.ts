/**
 * x402 on a real anvil node: an EIP-3009 token (test/fixtures/Eip3009Token.sol, USDC's domain "USD Coin"/"2")
 * deployed and registered as the network's USDC with its EIP-712 domain; account 1 is the service's EVM operator,
 * account 2 the team's settlement wallet, account 3 another team's, account 5 the paying agent (100 USDC).
 * `authorize` signs an EIP-3009 TransferWithAuthorization as a wallet would; `balances` reads what tests compare.
 */
import { getAddress, toHex, type Address, type Hex } from "viem";
import type { HDAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import type { TokenConfig } from "../../../src/chains/types";
import type { Eip3009Authorization } from "../../../src/chains/x402-types";
import { authorizationTypedData, EIP3009_ABI } from "../../../src/chains/evm/eip3009";
import { account, anvilRegistryFile, compileFixture, deploy, startAnvil } from "./anvil";

export const USDC_DOMAIN = { name: "USD Coin", version: "2" };
const keyOf = (a: HDAccount): Hex => toHex(a.getHdKey().privateKey!);

export async function x402Bed(funds = 100_000_000n) {
  const anvil = await startAnvil();
  const contracts = await compileFixture("Eip3009Token.sol");
  const usdc = getAddress(await deploy(anvil, contracts.Eip3009Token!, [USDC_DOMAIN.name, USDC_DOMAIN.version]));
  const token: TokenConfig = { symbol: "USDC", decimals: 6, contract: usdc, eip712: USDC_DOMAIN };
  const payer = account(5);
  const operator = account(1);
  const payee = account(2).address;
  const otherPayee = account(3).address;
  const abi = contracts.Eip3009Token!.abi;
  await anvil.client.waitForTransactionReceipt({
    hash: await anvil.client.writeContract({
      address: usdc,
      abi,
      functionName: "mint",
      args: [payer.address, funds],
      account: account(0),
      chain: foundry,
    }),
  });
  const registryFile = await anvilRegistryFile(anvil, "x402", [token]);
  const balanceOf = (who: Address) => anvil.client.readContract({ address: usdc, abi: EIP3009_ABI, functionName: "balanceOf", args: [who] });
  /** unix seconds of the chain's next block (anvil's clock) */
  const chainNow = async () => Number((await anvil.client.getBlock()).timestamp);

  /** An EIP-3009 authorization signed by `signer` (default: the payer), naming `from` (default: the signer). */
  async function authorize(a: Partial<Eip3009Authorization> & { to: string; value: string }, signer: HDAccount = payer) {
    const now = await chainNow();
    const authorization: Eip3009Authorization = {
      from: a.from ?? signer.address,
      to: a.to,
      value: a.value,
      validAfter: a.validAfter ?? "0",
      validBefore: a.validBefore ?? String(now + 300),
      nonce: a.nonce ?? toHex(crypto.getRandomValues(new Uint8Array(32))),
    };
    const typed = authorizationTypedData({ ...USDC_DOMAIN, chainId: 31337, verifyingContract: usdc }, authorization);
    const signature = await signer.signTypedData(typed);
    return { authorization, signature };
  }

  return {
    anvil,
    usdc,
    token,
    payer,
    payee,
    otherPayee,
    registryFile,
    operatorKey: keyOf(operator),
    authorize,
    chainNow,
    /** the payer's, the payee's and the other payee's USDC */
    balances: async () => ({ payer: await balanceOf(payer.address), payee: await balanceOf(payee), other: await balanceOf(otherPayee) }),
    nonceUsed: (from: Address, nonce: Hex) =>
      anvil.client.readContract({ address: usdc, abi: EIP3009_ABI, functionName: "authorizationState", args: [from, nonce] }),
    stop: () => anvil.stop(),
  };
}

export type X402Bed = Awaited<ReturnType<typeof x402Bed>>;
