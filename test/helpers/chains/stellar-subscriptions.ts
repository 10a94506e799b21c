/**
 * A ready Stellar subscription setup for tests: the Soroban RPC double, a registry entry pointing at it
 * (sorobanRpcUrl), an operator (its S... secret goes into ChainPool's operatorKeys), a funded payer, a payee
 * and a USDC-like credit asset (plus XLM). `approve` is the payer's side of autopay: a transaction the payer
 * signs and sends through the double, exactly what their wallet would do.
 */
import { Asset, BASE_FEE, Contract, Keypair, nativeToScVal, rpc, TransactionBuilder, xdr, Address } from "@stellar/stellar-sdk";
import type { AutopayParties } from "../../../src/chains/subscription-types";
import type { NetworkConfig, TokenConfig } from "../../../src/chains/types";
import { type DoubleOptions, type StellarRpcDouble, startStellarRpcDouble } from "./stellar-rpc-double";
import { chainNowMs } from "./stellar-rpc-node";

export interface StellarSubscriptionSetup {
  double: StellarRpcDouble;
  /** a registry entry for the double's network: passphrase, tokens, sorobanRpcUrl */
  network: NetworkConfig;
  /** SUBSCRIPTION_STELLAR_OPERATOR_SECRET */
  operatorSecret: string;
  operator: Keypair;
  payer: Keypair;
  payee: Keypair;
  /** the credit asset the payer holds (7 decimals) */
  token: TokenConfig;
  asset: Asset;
  xlm: TokenConfig;
  xlmAsset: Asset;
  /** `{network, token, payer, payee}` for the adapter, overridable */
  parties(overrides?: Partial<AutopayParties>): AutopayParties;
  /** the payer approves the operator for `amount` until `ledgers` from now (default ~30 days) */
  approve(amount: bigint, options?: { ledgers?: number; payer?: Keypair; asset?: Asset }): Promise<void>;
  /** a fresh funded account holding `amount` of the asset */
  newPayer(amount: bigint): Keypair;
  /** a random 32-byte operation reference (hex) */
  reference(): string;
  stop(): void;
}

const THIRTY_DAYS_OF_LEDGERS = 518_400;

export function startStellarSubscriptions(options: DoubleOptions & { payerBalance?: bigint } = {}): StellarSubscriptionSetup {
  const double = startStellarRpcDouble(options);
  const issuer = Keypair.random();
  const asset = new Asset("USDC", issuer.publicKey());
  const token: TokenConfig = { symbol: "USDC", decimals: 7, assetCode: "USDC", assetIssuer: issuer.publicKey() };
  const xlm: TokenConfig = { symbol: "XLM", decimals: 7, native: true };
  double.addToken(asset);
  double.addToken(Asset.native());
  const [operator, payee] = [Keypair.random(), Keypair.random()];
  for (const account of [operator, payee]) double.createAccount(account.publicKey());
  double.fund(asset, payee.publicKey(), 0n);
  const newPayer = (amount: bigint) => {
    const payer = Keypair.random();
    double.createAccount(payer.publicKey());
    double.fund(asset, payer.publicKey(), amount);
    return payer;
  };
  const payer = newPayer(options.payerBalance ?? 1_000_0000000n);
  const network: NetworkConfig = {
    id: "stellar-testnet",
    family: "stellar",
    testnet: true,
    chainId: null,
    rpcUrl: double.url,
    networkPassphrase: double.passphrase,
    confirmations: 0,
    tokens: [token, xlm],
    sorobanRpcUrl: double.url,
  };
  const server = new rpc.Server(double.url, { allowHttp: true });

  async function approve(amount: bigint, opts: { ledgers?: number; payer?: Keypair; asset?: Asset } = {}) {
    const from = opts.payer ?? payer;
    const sac = new Contract((opts.asset ?? asset).contractId(double.passphrase));
    const liveUntil = double.node.latest + (opts.ledgers ?? THIRTY_DAYS_OF_LEDGERS);
    const args = [new Address(from.publicKey()).toScVal(), new Address(operator.publicKey()).toScVal()];
    const call = sac.call("approve", ...args, nativeToScVal(amount, { type: "i128" }), xdr.ScVal.scvU32(liveUntil));
    const account = await server.getAccount(from.publicKey());
    // Valid for 30 s of the double's clock (which TEST_NOW may set apart from the wall's).
    const timebounds = { minTime: 0, maxTime: Math.floor(chainNowMs() / 1000) + 30 };
    const tx = new TransactionBuilder(account, { fee: BASE_FEE, networkPassphrase: double.passphrase, timebounds }).addOperation(call).build();
    const prepared = await server.prepareTransaction(tx);
    prepared.sign(from);
    const sent = await server.sendTransaction(prepared);
    const landed = await server.getTransaction(sent.hash);
    if (landed.status !== "SUCCESS") throw new Error(`approve did not land: ${sent.status} ${landed.status}`);
  }

  return {
    double,
    network,
    operatorSecret: operator.secret(),
    operator,
    payer,
    payee,
    token,
    asset,
    xlm,
    xlmAsset: Asset.native(),
    parties: (overrides = {}) => ({ network, token, payer: payer.publicKey(), payee: payee.publicKey(), ...overrides }),
    approve,
    newPayer,
    reference: () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex"),
    stop: () => double.stop(),
  };
}
