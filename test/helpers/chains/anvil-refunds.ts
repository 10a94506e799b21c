/**
 * Refunds on a real anvil node: two solc-compiled 6-decimal ERC-20s (the invoice's USDC and another) and the
 * native coin (ETH), the team's settlement wallet and a stranger both holding them, and a customer to refund.
 */
import { erc20Abi, type Address, type Hex } from "viem";
import { foundry } from "viem/chains";
import { account, deploy, startAnvil, testContracts } from "./anvil";
import { refundBed, setSettlementWallet } from "../refunds";

export async function anvilRefundBed() {
  const anvil = await startAnvil();
  const contracts = await testContracts();
  const usdc = await deploy(anvil, contracts.TestToken, ["Test USD", "USDC"]);
  const other = await deploy(anvil, contracts.TestToken, ["Other USD", "OUSD"]);
  const merchant = account(2);
  const stranger = account(3);
  const customer = account(4).address;
  const elsewhere = account(5).address;
  for (const token of [usdc, other])
    for (const holder of [merchant.address, stranger.address])
      await anvil.client.waitForTransactionReceipt({
        hash: await anvil.client.writeContract({
          address: token,
          abi: contracts.TestToken.abi,
          functionName: "mint",
          args: [holder, 10n ** 12n],
          account: account(0),
          chain: foundry,
        }),
      });
  const bed = await refundBed([
    {
      id: "anvil",
      family: "evm",
      testnet: true,
      chainId: 31337,
      rpcUrl: anvil.rpcUrl,
      confirmations: 2,
      tokens: [
        { symbol: "USDC", decimals: 6, contract: usdc },
        { symbol: "ETH", decimals: 18, native: true },
      ],
    },
  ]);
  bed.t.closers.push(() => anvil.stop());
  // Stored in lower case: the check compares EVM addresses in any case, as the chain does.
  await setSettlementWallet(bed, "anvil", merchant.address.toLowerCase());

  /** A token transfer, mined (one confirmation of the two the network needs); `gas` set lets a reverting one land. */
  async function send(from: typeof merchant, token: Address, to: Address, amount: bigint, gas?: bigint): Promise<Hex> {
    const hash = await anvil.client.writeContract({
      address: token,
      abi: erc20Abi,
      functionName: "transfer",
      args: [to, amount],
      account: from,
      chain: foundry,
      gas,
    });
    await anvil.client.waitForTransactionReceipt({ hash });
    return hash;
  }
  const confirm = () => anvil.client.mine({ blocks: 1 });
  const body = (amount: unknown, txHash: string, recipientWallet: string = customer, reason = "Duplicate charge") => ({
    amount,
    reason,
    refundProof: { txHash, recipientWallet },
  });
  return { anvil, bed, usdc, other, merchant, stranger, customer, elsewhere, send, confirm, body };
}
