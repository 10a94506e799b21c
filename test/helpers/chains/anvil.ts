/**
 * A real local EVM node for chain tests: anvil from npm (@foundry-rs/anvil ships the binary in a
 * per-platform package), plus solc-js to compile and deploy the test tokens in test/fixtures.
 */
import solc from "solc";
import { createTestClient, http, publicActions, walletActions, type Abi, type Address, type Hex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import type { TokenConfig } from "../../../src/chains/types";
import { testNow, testNowIsFixed } from "../clock";

/** anvil's dev accounts come from this mnemonic, each funded with 10 000 ETH. */
const DEV_MNEMONIC = "test test test test test test test test test test test junk";

function anvilBinary(): string {
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  return Bun.resolveSync(`${pkg}/package.json`, import.meta.dir).replace(/package\.json$/, "bin/anvil");
}

async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

export interface Anvil {
  rpcUrl: string;
  client: ReturnType<typeof makeClient>;
  stop(): Promise<void>;
}

function makeClient(rpcUrl: string) {
  // viem polls every 4 s for a chain without a block time (foundry's): a receipt not there at the first look
  // (now and then, right after anvil mined it) cost 4 s. anvil answers in milliseconds, so look again after 50.
  return createTestClient({ chain: foundry, mode: "anvil", transport: http(rpcUrl), pollingInterval: 50 })
    .extend(publicActions)
    .extend(walletActions);
}

/** Starts anvil with automining on a free port and waits until it answers. */
export async function startAnvil(): Promise<Anvil> {
  const port = await freePort();
  // Under TEST_NOW the chain's clock starts where the service's does (and runs on from there at the wall's pace).
  const genesis = testNowIsFixed() ? ["--timestamp", String(Math.floor(testNow() / 1000))] : [];
  const args = [anvilBinary(), "--port", String(port), "--host", "127.0.0.1", "--silent", ...genesis];
  const proc = Bun.spawn(args, { stdout: "ignore", stderr: "pipe" });
  const rpcUrl = `http://127.0.0.1:${port}`;
  const client = makeClient(rpcUrl);
  for (let attempt = 0; ; attempt++) {
    try {
      await client.getChainId();
      break;
    } catch (_error) {
      if (attempt > 100 || proc.exitCode !== null) throw new Error(`anvil did not start: ${await new Response(proc.stderr).text()}`);
      await Bun.sleep(50);
    }
  }
  return {
    rpcUrl,
    client,
    async stop() {
      proc.kill();
      await proc.exited;
    },
  };
}

export interface Compiled {
  abi: Abi;
  bytecode: Hex;
}

const compiled = new Map<string, Promise<Record<string, Compiled>>>();

/** Compiles a test/fixtures/ Solidity file (no imports) once per process with solc-js: its contracts by name. */
export function compileFixture(file: string): Promise<Record<string, Compiled>> {
  let contracts = compiled.get(file);
  if (!contracts) {
    contracts = (async () => {
      const source = await Bun.file(new URL(`../../fixtures/${file}`, import.meta.url)).text();
      const input = {
        language: "Solidity",
        sources: { [file]: { content: source } },
        settings: { outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
      };
      const output = JSON.parse(solc.compile(JSON.stringify(input)));
      const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
      if (errors.length) throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join("\n"));
      const byName: Record<string, Compiled> = {};
      for (const [name, contract] of Object.entries(output.contracts[file] as Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>))
        byName[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
      return byName;
    })();
    compiled.set(file, contracts);
  }
  return contracts;
}

/** The test tokens of test/fixtures/TestTokens.sol. */
export const testContracts = () => compileFixture("TestTokens.sol") as Promise<Record<"TestToken" | "ImpostorToken", Compiled>>;

export const account = (index: number) => mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });

/** Deploys a contract from `deployer` and waits for it; returns its address. */
export async function deploy(anvil: Anvil, contract: Compiled, args: readonly unknown[] = [], deployer = account(0)): Promise<Address> {
  const hash = await anvil.client.deployContract({ abi: contract.abi, bytecode: contract.bytecode, args, account: deployer, chain: foundry });
  const receipt = await anvil.client.waitForTransactionReceipt({ hash });
  return receipt.contractAddress!;
}

/** Mints `amount` of each test token to `to` (the tokens' owner, account 0, mints). */
export async function mintTokens(anvil: Anvil, contract: Compiled, tokens: readonly Address[], to: Address, amount: bigint): Promise<void> {
  for (const token of tokens)
    await anvil.client.waitForTransactionReceipt({
      hash: await anvil.client.writeContract({
        address: token,
        abi: contract.abi,
        functionName: "mint",
        args: [to, amount],
        account: account(0),
        chain: foundry,
      }),
    });
}

/** A chain registry file naming this anvil node as network `anvil` with the given tokens (for CHAIN_REGISTRY_FILE). */
export async function anvilRegistryFile(anvil: Anvil, name: string, tokens: readonly TokenConfig[], confirmations = 1): Promise<string> {
  const path = `${process.cwd()}/.data/test/${name}-${crypto.randomUUID()}.json`;
  await Bun.write(path, JSON.stringify([{ id: "anvil", family: "evm", testnet: true, chainId: 31337, rpcUrl: anvil.rpcUrl, confirmations, tokens }]));
  return path;
}
