/**
 * Deploys the subscription contract (or, with `--contract escrow`, the escrow contract) from the checked-in artifact
 * (src/chains/evm/subscription-contract.ts, src/chains/evm/escrow-contract.ts):
 *
 *   DEPLOYER_PRIVATE_KEY=0x... bun contracts/deploy.ts --rpc-url https://... --operator 0x... [--owner 0x...] [--contract escrow]
 *
 * The deployer pays the gas; `--owner` (default: the deployer) may later change the operator with `setOperator`;
 * `--operator` is the address of SUBSCRIPTION_EVM_OPERATOR_KEY. The key comes from the environment, never the
 * command line (other users of a machine can read its process list). Prints the address for the registry's
 * `subscriptionContract` (or `escrowContract`). Both contracts take the same constructor (owner, operator).
 */
import { parseArgs } from "node:util"; // no web standard parses a command line
import { createPublicClient, createWalletClient, http, isAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { SUBSCRIPTIONS_ABI, SUBSCRIPTIONS_BYTECODE } from "../src/chains/evm/subscription-contract";
import { ESCROW_ABI, ESCROW_BYTECODE } from "../src/chains/evm/escrow-contract";

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const { values } = parseArgs({
  options: { "rpc-url": { type: "string" }, operator: { type: "string" }, owner: { type: "string" }, contract: { type: "string" } },
});
const ARTIFACTS = {
  subscriptions: { abi: SUBSCRIPTIONS_ABI, bytecode: SUBSCRIPTIONS_BYTECODE },
  escrow: { abi: ESCROW_ABI, bytecode: ESCROW_BYTECODE },
} as const;
const which = values.contract ?? "subscriptions";
if (which !== "subscriptions" && which !== "escrow") fail("--contract is subscriptions (the default) or escrow");
const artifact = ARTIFACTS[which];
const rpcUrl = values["rpc-url"] ?? fail("--rpc-url is required");
const operator = values.operator ?? fail("--operator is required (the address of SUBSCRIPTION_EVM_OPERATOR_KEY)");
const key = Bun.env.DEPLOYER_PRIVATE_KEY ?? fail("DEPLOYER_PRIVATE_KEY is not set");
if (!/^0x[0-9a-fA-F]{64}$/.test(key)) fail("DEPLOYER_PRIVATE_KEY must be 0x followed by 64 hex digits");
const deployer = privateKeyToAccount(key as Hex);
const owner = values.owner ?? deployer.address;
for (const [name, address] of [
  ["--operator", operator],
  ["--owner", owner],
] as const)
  if (!isAddress(address)) fail(`${name} is not an EVM address (mixed case must carry a valid checksum)`);

const transport = http(rpcUrl);
const wallet = createWalletClient({ account: deployer, transport });
const hash = await wallet.deployContract({
  abi: artifact.abi,
  bytecode: artifact.bytecode,
  args: [owner as Hex, operator as Hex],
  chain: null,
});
const receipt = await createPublicClient({ transport }).waitForTransactionReceipt({ hash });
if (receipt.status !== "success" || !receipt.contractAddress) fail(`the deployment ${hash} reverted`);
console.log(receipt.contractAddress);
