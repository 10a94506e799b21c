/**
 * A Solana network ready for subscriptions, for chain tests and service-level tests alike: a litesvm ledger
 * behind a JSON-RPC node on a free port (test/helpers/chains/solana-ledger-rpc.ts), a 6-decimal USDC-like mint, an
 * operator funded with SOL (its key in the shape SUBSCRIPTION_SOLANA_OPERATOR_KEY takes), a payer holding
 * the token who approved the operator as delegate, and a payee (the team's settlement wallet) with its token
 * account. Pass `operatorKeys` to a ChainPool and `network` to the registry; `stop()` closes the node.
 */
import { Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram } from "@solana/web3.js";
import {
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
  createApproveCheckedInstruction,
  createAssociatedTokenAccountInstruction,
  createFreezeAccountInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  createRevokeInstruction,
  createThawAccountInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  unpackAccount,
  unpackMint,
  type Account,
  type Mint,
} from "@solana/spl-token";
import { afterAll } from "bun:test";
import type { OperatorKeys } from "../../../src/lib/operator-keys";
import { ChainPool } from "../../../src/chains/pool";
import { encodeBase58 } from "../../../src/chains/solana/base58";
import type { AutopayParties } from "../../../src/chains/subscription-types";
import type { NetworkConfig, TokenConfig } from "../../../src/chains/types";
import { LedgerRpc } from "./solana-ledger-rpc";
import { SolanaLedger } from "./solana-ledger";

export const DECIMALS = 6;
/** Whole tokens of the test mint in its units. */
export const usdc = (amount: number): bigint => BigInt(amount) * 10n ** BigInt(DECIMALS);

type Address = Parameters<SolanaLedger["svm"]["getAccount"]>[0];

export interface SolanaSubscriptionChain {
  ledger: SolanaLedger;
  rpc: LedgerRpc;
  /** the registry entry: family solana, rpcUrl the local node, the token below */
  network: NetworkConfig;
  token: TokenConfig;
  mint: PublicKey;
  /** mint and freeze authority of the token, as Circle is USDC's */
  issuer: Keypair;
  operator: Keypair;
  /** base58 of the operator's 64-byte secret key */
  operatorKey: string;
  /** for `new ChainPool({operatorKeys})` */
  operatorKeys: OperatorKeys;
  /** holds 1 000 USDC (by default) and approved the operator for 500 */
  payer: Keypair;
  payee: Keypair;
  /** the AutopayParties of payer -> payee in the token */
  parties(payer?: Keypair, payee?: Keypair): AutopayParties;
  /** a new wallet with SOL for fees, `balance` of the token and the operator approved for `approved` */
  newPayer(balance?: bigint, approved?: bigint): Keypair;
  /** the owner's associated token account for the token (or another mint) */
  tokenAddress(owner: PublicKey, mint?: PublicKey): PublicKey;
  tokenAccount(owner: PublicKey, mint?: PublicKey): Account | null;
  balance(owner: PublicKey): bigint;
  readMint(mint: PublicKey): Mint;
  approve(owner: Keypair, delegate: PublicKey, amount: bigint): void;
  revoke(owner: Keypair): void;
  transfer(from: Keypair, to: PublicKey, amount: bigint): void;
  freeze(owner: PublicKey): void;
  thaw(owner: PublicKey): void;
  stop(): void;
}

/** For a test file: the chain, and a ChainPool whose workers hold its operator key; both stop after the file's tests. */
export function solanaSubscriptionsUnderTest(): { chain: SolanaSubscriptionChain; pool: ChainPool } {
  const chain = startSolanaSubscriptionChain();
  const pool = new ChainPool({ size: 1, jobTimeoutMs: 20_000, operatorKeys: chain.operatorKeys });
  afterAll(async () => {
    await pool.close();
    chain.stop();
  });
  return { chain, pool };
}

/** 32 random bytes in hex: an operation reference. */
export const newReference = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex");

export function startSolanaSubscriptionChain({ balance = usdc(1_000), approved = usdc(500) } = {}): SolanaSubscriptionChain {
  const ledger = new SolanaLedger();
  const rpc = new LedgerRpc(ledger);
  const [issuer, operator, payee, mintKey] = [0, 1, 2, 3].map(() => Keypair.generate()) as [Keypair, Keypair, Keypair, Keypair];
  const mint = mintKey.publicKey;
  const ata = (owner: PublicKey, ofMint = mint) => getAssociatedTokenAddressSync(ofMint, owner, true);
  for (const key of [issuer, operator]) ledger.fund(key.publicKey, 10n * BigInt(LAMPORTS_PER_SOL));

  const rent = Number(ledger.svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE)));
  ledger.mustSend(
    [
      SystemProgram.createAccount({
        fromPubkey: issuer.publicKey,
        newAccountPubkey: mint,
        lamports: rent,
        space: MINT_SIZE,
        programId: TOKEN_PROGRAM_ID,
      }),
      createInitializeMint2Instruction(mint, DECIMALS, issuer.publicKey, issuer.publicKey),
      createAssociatedTokenAccountInstruction(issuer.publicKey, ata(payee.publicKey), payee.publicKey, mint),
      createAssociatedTokenAccountInstruction(issuer.publicKey, ata(issuer.publicKey), issuer.publicKey, mint),
    ],
    [issuer, mintKey],
  );

  const token: TokenConfig = { symbol: "USDC", decimals: DECIMALS, mint: mint.toBase58() };
  const network: NetworkConfig = {
    id: "solana-localnet",
    family: "solana",
    testnet: true,
    chainId: null,
    rpcUrl: rpc.url,
    confirmations: 0,
    tokens: [token],
  };
  const operatorKey = encodeBase58(operator.secretKey);

  const approve = (owner: Keypair, delegate: PublicKey, amount: bigint) =>
    void ledger.mustSend([createApproveCheckedInstruction(ata(owner.publicKey), mint, delegate, owner.publicKey, amount, DECIMALS)], [owner]);
  const newPayer = (amount = balance, allowance = approved) => {
    const wallet = Keypair.generate();
    ledger.fund(wallet.publicKey, BigInt(LAMPORTS_PER_SOL));
    ledger.mustSend(
      [
        createAssociatedTokenAccountInstruction(issuer.publicKey, ata(wallet.publicKey), wallet.publicKey, mint),
        createMintToInstruction(mint, ata(wallet.publicKey), issuer.publicKey, amount),
      ],
      [issuer],
    );
    approve(wallet, operator.publicKey, allowance);
    return wallet;
  };
  const payer = newPayer();

  const fixture: SolanaSubscriptionChain = {
    ledger,
    rpc,
    network,
    token,
    mint,
    issuer,
    operator,
    operatorKey,
    operatorKeys: { SUBSCRIPTION_SOLANA_OPERATOR_KEY: operatorKey },
    payer,
    payee,
    parties: (from = payer, to = payee) => ({ network, token, payer: from.publicKey.toBase58(), payee: to.publicKey.toBase58() }),
    newPayer,
    tokenAddress: (owner, ofMint = mint) => ata(owner, ofMint),
    tokenAccount(owner, ofMint = mint) {
      const account = ledger.svm.getAccount(ata(owner, ofMint).toBase58() as Address);
      if (!account.exists) return null;
      const info = { data: Buffer.from(account.data), executable: false, lamports: Number(account.lamports), owner: TOKEN_PROGRAM_ID };
      return unpackAccount(ata(owner, ofMint), info);
    },
    balance: (owner) => fixture.tokenAccount(owner)?.amount ?? 0n,
    readMint(address) {
      const account = ledger.svm.getAccount(address.toBase58() as Address);
      if (!account.exists) throw new Error("no such mint");
      return unpackMint(address, {
        data: Buffer.from(account.data),
        executable: false,
        lamports: Number(account.lamports),
        owner: new PublicKey(account.programAddress),
      });
    },
    approve,
    revoke: (owner) => void ledger.mustSend([createRevokeInstruction(ata(owner.publicKey), owner.publicKey)], [owner]),
    transfer: (from, to, amount) =>
      void ledger.mustSend([createTransferCheckedInstruction(ata(from.publicKey), mint, ata(to), from.publicKey, amount, DECIMALS)], [from]),
    freeze: (owner) => void ledger.mustSend([createFreezeAccountInstruction(ata(owner), mint, issuer.publicKey)], [issuer]),
    thaw: (owner) => void ledger.mustSend([createThawAccountInstruction(ata(owner), mint, issuer.publicKey)], [issuer]),
    stop: () => rpc.stop(),
  };
  return fixture;
}
