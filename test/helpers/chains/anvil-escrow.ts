/**
 * Escrow on a real anvil node: a 6-decimal test USDC, our escrow contract (the checked-in artifact, as production
 * deploys it) with account 1 as its operator, a payer (account 4) holding USDC that approved the contract, and the
 * payee (account 2, a team's settlement wallet). The payer consents to each reservation by signing the contract's
 * EIP-712 `Consent` (`consent`). Service-level tests point CHAIN_REGISTRY_FILE at `registryFile` and
 * SUBSCRIPTION_EVM_OPERATOR_KEY at `operatorKey`.
 */
import { erc20Abi, getAddress, hashTypedData, toHex, type Abi, type Address, type Hex } from "viem";
import type { HDAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { ESCROW_ABI, ESCROW_BYTECODE } from "../../../src/chains/evm/escrow-contract";
import { deliveryProviderHash, escrowConsentTypedData, escrowKey, type EscrowConsent } from "../../../src/chains/evm/escrow-consent";
import type { NetworkConfig, TokenConfig } from "../../../src/chains/types";
import { ESCROW_CHAIN_STATUSES } from "../../../src/chains/escrow-types";
import { account, deploy, startAnvil, testContracts, type Anvil } from "./anvil";

export interface ConsentTerms {
  amount: bigint;
  requestNonce: string;
  /** unix seconds */
  windowEnd: number;
  /** unix seconds */
  deadline: number;
  payee: Address;
  token: Address;
  /** the Reclaim provider name whose proof may capture early; null (default): none may */
  deliveryProvider: string | null;
}

export async function anvilEscrowBed() {
  const anvil: Anvil = await startAnvil();
  const owner = account(0);
  const operatorAccount = account(1);
  const payer = account(4);
  const payee = getAddress(account(2).address);
  const otherPayer = account(5);
  const contracts = await testContracts();
  const usdc = getAddress(await deploy(anvil, contracts.TestToken, ["Test USD", "USDC"]));
  const contract = getAddress(await deploy(anvil, { abi: ESCROW_ABI as Abi, bytecode: ESCROW_BYTECODE }, [owner.address, operatorAccount.address]));
  const token: TokenConfig = { symbol: "USDC", decimals: 6, contract: usdc };
  const network: NetworkConfig = {
    id: "anvil",
    family: "evm",
    testnet: true,
    chainId: 31337,
    rpcUrl: anvil.rpcUrl,
    confirmations: 1,
    tokens: [token, { symbol: "ETH", decimals: 18, native: true }],
    escrowContract: contract,
  };
  const registryFile = `${process.cwd()}/.data/test/escrow-${crypto.randomUUID()}.json`;
  await Bun.write(registryFile, JSON.stringify([network]));

  async function write(from: HDAccount, address: Address, abi: Abi, functionName: string, args: readonly unknown[]) {
    const hash = await anvil.client.writeContract({ address, abi, functionName, args, account: from, chain: foundry });
    return anvil.client.waitForTransactionReceipt({ hash });
  }
  const now = async () => Number((await anvil.client.getBlock()).timestamp);
  const balanceOf = (holder: Address) => anvil.client.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [holder] });
  /** The reservation of the payee's (default: the bed's) `requestNonce` on the contract (default: the bed's), status by name. */
  async function reservation(requestNonce: string, at: { payee?: Address; contract?: Address } = {}) {
    const [payerOf, windowEnd, status, payeeOf, , tokenOf, amount, provider] = (await anvil.client.readContract({
      address: at.contract ?? contract,
      abi: ESCROW_ABI,
      functionName: "reservations",
      args: [escrowKey(at.payee ?? payee, requestNonce)],
    })) as readonly [Address, bigint, number, Address, bigint, Address, bigint, Hex];
    return {
      payer: payerOf,
      payee: payeeOf,
      token: tokenOf,
      amount,
      windowEnd: Number(windowEnd),
      status: ESCROW_CHAIN_STATUSES[status]!,
      deliveryProvider: provider,
    };
  }
  /** Balances of the payer, the payee and the contract, for before/after comparisons. */
  const balances = async (p: Address = payer.address) => ({
    payer: await balanceOf(p),
    payee: await balanceOf(payee),
    escrow: await balanceOf(contract),
  });
  /** `signer`'s EIP-712 signature of a consent to one reservation; defaults: 5 USDC, window 1 hour, consent valid 10 minutes. */
  async function consent(signer: HDAccount, terms: Partial<ConsentTerms> & { payer?: Address } = {}) {
    const at = await now();
    const c: EscrowConsent = {
      payer: terms.payer ?? signer.address,
      payee: terms.payee ?? payee,
      token: terms.token ?? usdc,
      amount: terms.amount ?? 5_000_000n,
      requestNonce: terms.requestNonce ?? `req-${crypto.randomUUID()}`,
      windowEnd: terms.windowEnd ?? at + 3600,
      deadline: terms.deadline ?? at + 600,
      deliveryProvider: deliveryProviderHash(terms.deliveryProvider ?? null),
    };
    const typed = escrowConsentTypedData({ chainId: 31337, contract }, c);
    const signature: Hex = await signer.sign({ hash: hashTypedData(typed) });
    return { consent: c, signature, struct: typed.message };
  }
  async function elapse(seconds: number) {
    await anvil.client.increaseTime({ seconds });
    await anvil.client.mine({ blocks: 1 });
  }
  let nextPayer = 10; // past anvil's ten funded dev accounts
  /** A fresh payer with gas money and `funds` USDC that approved the contract for everything. */
  async function newPayer(funds = 1_000_000_000n) {
    const fresh = account(nextPayer++);
    await anvil.client.setBalance({ address: fresh.address, value: 10n ** 20n });
    await write(owner, usdc, contracts.TestToken.abi, "mint", [fresh.address, funds]);
    await write(fresh, usdc, erc20Abi, "approve", [contract, 2n ** 256n - 1n]);
    return fresh;
  }
  for (const p of [payer, otherPayer]) {
    await write(owner, usdc, contracts.TestToken.abi, "mint", [p.address, 1_000_000_000n]);
    await write(p, usdc, erc20Abi, "approve", [contract, 2n ** 256n - 1n]);
  }
  const operatorKey = toHex(operatorAccount.getHdKey().privateKey!);
  return {
    anvil,
    contract,
    usdc,
    token,
    network,
    registryFile,
    operatorKey,
    operatorAccount,
    owner,
    payer,
    otherPayer,
    payee,
    write,
    now,
    balanceOf,
    balances,
    reservation,
    consent,
    elapse,
    newPayer,
    contracts,
    stop: () => anvil.stop(),
  };
}

export type EscrowBed = Awaited<ReturnType<typeof anvilEscrowBed>>;
