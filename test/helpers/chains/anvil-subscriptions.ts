/**
 * Subscriptions on a real anvil node: a 6-decimal test USDC, our subscription contract (the checked-in artifact,
 * as production deploys it) with account 1 as its operator, and a payer (account 4) holding USDC that approved the
 * contract. The payer consents to each subscription by signing the contract's EIP-712 `Consent` (`consent`), naming
 * the payee (account 2, a team's settlement wallet by default) and the company. Service-level tests point
 * CHAIN_REGISTRY_FILE at `registryFile` and SUBSCRIPTION_EVM_OPERATOR_KEY (or ChainPool's `operatorKeys`) at
 * `operatorKey`.
 */
import { erc20Abi, getAddress, hashTypedData, toHex, type Abi, type Address, type Hex } from "viem";
import type { HDAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { SUBSCRIPTIONS_ABI, SUBSCRIPTIONS_BYTECODE } from "../../../src/chains/evm/subscription-contract";
import type { OperatorKeys } from "../../../src/lib/operator-keys";
import { ChainPool } from "../../../src/chains/pool";
import { consentTypedData } from "../../../src/chains/evm/consent";
import type { ChainOperation, EvmConsent, OperationResult } from "../../../src/chains/subscription-types";
import type { NetworkConfig, TokenConfig } from "../../../src/chains/types";
import { account, deploy, startAnvil, testContracts, type Anvil } from "./anvil";

export const DAY = 86_400;

export interface Terms {
  periodAllowance: bigint;
  periodSeconds: number;
  cap: bigint;
  /** unix seconds */
  end: number;
}

/** `payerConsent` as POST /subscriptions/activate takes it on EVM. */
export interface ConsentBody {
  salt: string;
  periodAllowance: string;
  periodSeconds: number;
  cap: string;
  end: number;
  signature: string;
}

export interface ConsentOptions {
  /** the payee the consent names (default: the bed's payee) */
  payee?: Address;
  salt?: Hex;
  /** signs the typed data's hash with this key instead of the payer's (a smart account's owner, another wallet) */
  signer?: HDAccount;
  /** the payer the consent names, when it is not `payer`'s own address (a smart account) */
  payerAddress?: Address;
}

export interface SubscriptionBedOptions {
  /** the payer's default consent terms; defaults: 10 USDC per 28 days, 100 USDC in total, for a year */
  terms?: Partial<Terms>;
  /** USDC minted to the payer (default 1000 USDC) */
  funds?: bigint;
}

/** A private key of one of anvil's dev accounts. */
const keyOf = (a: HDAccount): Hex => toHex(a.getHdKey().privateKey!);

export async function anvilSubscriptionBed(options: SubscriptionBedOptions = {}) {
  const anvil: Anvil = await startAnvil();
  const owner = account(0);
  const operatorAccount = account(1);
  const payer = account(4);
  const payee = account(2).address;
  /** another team's settlement wallet, which the payer never authorized */
  const otherPayee = account(3).address;
  const contracts = await testContracts();
  // Checksummed, as the chain and viem spell addresses in what they return.
  const usdc = getAddress(await deploy(anvil, contracts.TestToken, ["Test USD", "USDC"]));
  const contract = getAddress(
    await deploy(anvil, { abi: SUBSCRIPTIONS_ABI as Abi, bytecode: SUBSCRIPTIONS_BYTECODE }, [owner.address, operatorAccount.address]),
  );
  const token: TokenConfig = { symbol: "USDC", decimals: 6, contract: usdc };
  const network: NetworkConfig = {
    id: "anvil",
    family: "evm",
    testnet: true,
    chainId: 31337,
    rpcUrl: anvil.rpcUrl,
    confirmations: 1,
    tokens: [token, { symbol: "ETH", decimals: 18, native: true }],
    subscriptionContract: contract,
  };
  const registryFile = `${process.cwd()}/.data/test/subscriptions-${crypto.randomUUID()}.json`;
  await Bun.write(registryFile, JSON.stringify([network]));

  /** Sends a contract call from `from` and waits for it; returns the receipt. */
  async function write(from: HDAccount, address: Address, abi: Abi, functionName: string, args: readonly unknown[]) {
    const hash = await anvil.client.writeContract({ address, abi, functionName, args, account: from, chain: foundry });
    return anvil.client.waitForTransactionReceipt({ hash });
  }
  const operatorNonce = () => anvil.client.getTransactionCount({ address: operatorAccount.address });
  /** A view of the subscription contract. */
  const read = <T>(functionName: string, args: readonly unknown[] = []) =>
    anvil.client.readContract({ address: contract, abi: SUBSCRIPTIONS_ABI as Abi, functionName, args }) as Promise<T>;
  const now = async () => Number((await anvil.client.getBlock()).timestamp);
  const mint = (to: Address, amount: bigint) => write(owner, usdc, contracts.TestToken.abi, "mint", [to, amount]);
  const approve = (from: HDAccount, amount: bigint) => write(from, usdc, erc20Abi, "approve", [contract, amount]);
  const balanceOf = (holder: Address) => anvil.client.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [holder] });
  /** Consent terms: the bed's defaults (or the options') with `terms` over them; `end` a year from the chain's now. */
  async function fullTerms(terms: Partial<Terms> = {}): Promise<Terms> {
    return { periodAllowance: 10_000_000n, periodSeconds: 28 * DAY, cap: 100_000_000n, end: (await now()) + 365 * DAY, ...options.terms, ...terms };
  }
  /**
   * `payer`'s signed EIP-712 consent to one subscription of `company` (the contract's `Consent`): as the contract's
   * `subscribe` takes it (`evm`) and as the API's `payerConsent` carries it (`body`).
   */
  async function consent(payer: HDAccount, company: string, terms: Partial<Terms> = {}, o: ConsentOptions = {}) {
    const full = await fullTerms(terms);
    const evm: EvmConsent = { ...full, company, salt: o.salt ?? toHex(crypto.getRandomValues(new Uint8Array(32))), signature: "" };
    const parties = { chainId: 31337, contract, payer: o.payerAddress ?? payer.address, payee: o.payee ?? payee, token: usdc };
    const typed = consentTypedData(parties, evm);
    evm.signature = o.signer ? await o.signer.sign({ hash: hashTypedData(typed) }) : await payer.signTypedData(typed);
    const body: ConsentBody = {
      salt: evm.salt,
      periodAllowance: String(full.periodAllowance),
      periodSeconds: full.periodSeconds,
      cap: String(full.cap),
      end: full.end,
      signature: evm.signature,
    };
    return { evm, body, struct: typed.message, terms: full };
  }
  const signedPerKey = new Map<string, Promise<ConsentBody>>();
  /**
   * The consent an activation sends under Idempotency-Key `key`: signed once per key (twins sent at once share it),
   * so a retry sends the very same request.
   */
  function consentForKey(key: string, payer: HDAccount, company: string): Promise<ConsentBody> {
    if (!signedPerKey.has(key))
      signedPerKey.set(
        key,
        consent(payer, company).then((c) => c.body),
      );
    return signedPerKey.get(key)!;
  }
  /** The payer raises or renews its own subscription's authorization on the contract. */
  async function reauthorize(from: HDAccount, tokenId: bigint, terms: Partial<Terms> = {}): Promise<Terms> {
    const full = await fullTerms(terms);
    await write(from, contract, SUBSCRIPTIONS_ABI as Abi, "reauthorize", [tokenId, full.periodAllowance, full.periodSeconds, full.cap, full.end]);
    return full;
  }
  /** A subscription's authorization on the contract, by name. */
  async function authorization(tokenId: bigint) {
    type Tuple = [bigint, bigint, bigint, bigint, bigint, bigint, bigint];
    const [periodAllowance, cap, spent, spentInWindow, periodSeconds, end, windowStart] = await read<Tuple>("authorizations", [tokenId]);
    return { periodAllowance, cap, spent, spentInWindow, periodSeconds, end, windowStart };
  }
  /** What the chain still allows the subscription to pull in total: its cap less what it spent. */
  async function chainRemaining(tokenId: bigint | string): Promise<bigint> {
    const a = await authorization(BigInt(tokenId));
    return a.cap > a.spent ? a.cap - a.spent : 0n;
  }
  /** Moves the chain's clock forward and mines a block at the new time. */
  async function elapse(seconds: number) {
    await anvil.client.increaseTime({ seconds });
    await anvil.client.mine({ blocks: 1 });
  }

  /** Mines a block at unix second `at` (later than the chain's latest block). */
  async function elapseTo(at: number) {
    await anvil.client.setNextBlockTimestamp({ timestamp: BigInt(at) });
    await anvil.client.mine({ blocks: 1 });
  }

  let nextPayer = 10; // past anvil's ten funded dev accounts
  /** A fresh payer with gas money and `funds` USDC that approved the contract; `terms` are its consents' defaults. */
  async function newPayer(terms: Partial<Terms> = {}, funds = 1_000_000_000n) {
    const fresh = account(nextPayer++);
    await anvil.client.setBalance({ address: fresh.address, value: 10n ** 20n });
    await mint(fresh.address, funds);
    await approve(fresh, 2n ** 256n - 1n);
    return { account: fresh, terms: await fullTerms(terms) };
  }

  await mint(payer.address, options.funds ?? 1_000_000_000n);
  await approve(payer, 2n ** 256n - 1n);
  const terms = await fullTerms();
  const operatorKey = keyOf(operatorAccount);
  const operatorKeys: OperatorKeys = { SUBSCRIPTION_EVM_OPERATOR_KEY: operatorKey };

  return {
    anvil,
    contract,
    usdc,
    token,
    network,
    registryFile,
    operatorKey,
    operatorKeys,
    operator: operatorAccount.address,
    operatorAccount,
    owner,
    payer,
    payee,
    otherPayee,
    terms,
    write,
    read,
    operatorNonce,
    now,
    mint,
    approve,
    balanceOf,
    consent,
    consentForKey,
    reauthorize,
    authorization,
    chainRemaining,
    elapse,
    elapseTo,
    newPayer,
    stop: () => anvil.stop(),
  };
}

export type SubscriptionBed = Awaited<ReturnType<typeof anvilSubscriptionBed>>;

/** A bed and a chain worker pool holding its operator key, as the service runs subscription operations. */
export async function subscriptionBedWithPool(options: SubscriptionBedOptions = {}) {
  const bed = await anvilSubscriptionBed(options);
  const pool = new ChainPool({ size: 1, jobTimeoutMs: 20_000, operatorKeys: bed.operatorKeys });
  const stop = async () => {
    await pool.close();
    await bed.stop();
  };
  return { bed, pool, stop };
}

/** A fresh 32-byte operation reference. */
export const newRef = (): Hex => toHex(crypto.getRandomValues(new Uint8Array(32)));

/** The landed operation, or a failure that names the refusal. */
export function landed(result: OperationResult): ChainOperation {
  if (!result.ok) throw new Error(`expected a landed operation, got ${result.reason}: ${result.detail}`);
  return result;
}
