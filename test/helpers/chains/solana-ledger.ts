/**
 * A real Solana runtime in process (litesvm) that executes transactions signed with web3.js and turns
 * each execution into the exact `getTransaction` result a Solana RPC node serves for encoding "json".
 * Every balance in that result is read from litesvm's accounts before and after the transaction ran;
 * nothing is written by hand.
 */
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from "litesvm";
import {
  PublicKey,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
  type AddressLookupTableAccount,
  type Keypair,
  type TransactionInstruction,
} from "@solana/web3.js";
import { unpackAccount, unpackMint, TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import { encodeBase58, rpcMessage, rpcTransactionError, uiTokenAmount, type RpcTokenAmount, type RpcTransactionError } from "./solana-rpc-shape";

type SvmTransaction = Parameters<LiteSVM["sendTransaction"]>[0];
type SvmAddress = Parameters<LiteSVM["getAccount"]>[0];
type SvmLamports = Parameters<LiteSVM["airdrop"]>[1];

export interface RpcTokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: RpcTokenAmount;
}

/** `result` of `getTransaction(sig, {encoding: "json", maxSupportedTransactionVersion: 0})`. */
export interface RpcTransaction {
  slot: number;
  blockTime: number;
  version: "legacy" | 0;
  meta: {
    err: RpcTransactionError | null;
    status: { Ok: null } | { Err: RpcTransactionError };
    fee: number;
    preBalances: number[];
    postBalances: number[];
    preTokenBalances: RpcTokenBalance[];
    postTokenBalances: RpcTokenBalance[];
    innerInstructions: { index: number; instructions: { programIdIndex: number; accounts: number[]; data: string; stackHeight: number }[] }[];
    logMessages: string[];
    rewards: [];
    loadedAddresses: { writable: string[]; readonly: string[] };
    computeUnitsConsumed: number;
  };
  transaction: { message: Record<string, unknown>; signatures: string[] };
}

export interface Executed {
  signature: string;
  ok: boolean;
  result: RpcTransaction;
}

interface Snapshot {
  lamports: number;
  token: Omit<RpcTokenBalance, "accountIndex"> | null;
}

const asAddress = (key: PublicKey) => key.toBase58() as SvmAddress;

/** litesvm's transaction shape (@solana/kit's) for one signed with web3.js. */
function svmTransaction(tx: VersionedTransaction): SvmTransaction {
  const message = tx.message;
  const signatures: Record<string, Uint8Array> = {};
  message.staticAccountKeys.slice(0, message.header.numRequiredSignatures).forEach((key, i) => (signatures[key.toBase58()] = tx.signatures[i]!));
  return { messageBytes: message.serialize(), signatures } as unknown as SvmTransaction;
}

export class SolanaLedger {
  readonly svm = new LiteSVM();

  constructor() {
    // litesvm starts at a mainnet-like slot; move on from it so the verdict's slot is not a default value.
    this.svm.warpToSlot(this.slot + 1_234n);
  }

  get slot(): bigint {
    return this.svm.getClock().slot;
  }

  fund(key: PublicKey, lamports: bigint): void {
    const outcome = this.svm.airdrop(asAddress(key), lamports as SvmLamports);
    if (!outcome || outcome instanceof FailedTransactionMetadata) throw new Error(`airdrop failed: ${outcome}`);
  }

  /** Signs and runs a legacy transaction; `signers[0]` pays the fee. Throws if setup steps fail. */
  mustSend(instructions: TransactionInstruction[], signers: Keypair[]): Executed {
    const executed = this.send(instructions, signers);
    if (!executed.ok) throw new Error(`setup transaction failed: ${JSON.stringify(executed.result.meta.err)}`);
    return executed;
  }

  send(instructions: TransactionInstruction[], signers: Keypair[]): Executed {
    const tx = new Transaction({ feePayer: signers[0]!.publicKey, recentBlockhash: this.svm.latestBlockhash() }).add(...instructions);
    tx.sign(...signers);
    return this.execute(VersionedTransaction.deserialize(tx.serialize()), []);
  }

  /** Signs and runs a v0 transaction, optionally loading accounts through lookup tables. */
  sendV0(instructions: TransactionInstruction[], signers: Keypair[], tables: AddressLookupTableAccount[] = []): Executed {
    const message = new TransactionMessage({
      payerKey: signers[0]!.publicKey,
      recentBlockhash: this.svm.latestBlockhash(),
      instructions,
    }).compileToV0Message(tables);
    const tx = new VersionedTransaction(message);
    tx.sign(signers);
    return this.execute(tx, tables);
  }

  /** Runs a transaction signed elsewhere, as a node receives it (legacy, or v0 without lookup tables). */
  run(tx: VersionedTransaction): Executed {
    return this.execute(tx, []);
  }

  /** What running it now would fail with, as the RPC prints it, leaving every account as it is; null: it would succeed. */
  simulate(tx: VersionedTransaction): { err: RpcTransactionError; logs: string[] } | null {
    const outcome = this.svm.simulateTransaction(svmTransaction(tx));
    if (!(outcome instanceof FailedTransactionMetadata)) return null;
    return { err: rpcTransactionError(outcome.err()), logs: outcome.meta().logs() };
  }

  private execute(tx: VersionedTransaction, tables: AddressLookupTableAccount[]): Executed {
    const message = tx.message;
    const loaded = { writable: [] as PublicKey[], readonly: [] as PublicKey[] };
    for (const lookup of message.addressTableLookups) {
      const table = tables.find((t) => t.key.equals(lookup.accountKey));
      if (!table) throw new Error("lookup table not given");
      loaded.writable.push(...lookup.writableIndexes.map((i) => table.state.addresses[i]!));
      loaded.readonly.push(...lookup.readonlyIndexes.map((i) => table.state.addresses[i]!));
    }
    const keys = [...message.staticAccountKeys, ...loaded.writable, ...loaded.readonly];

    const slot = this.slot;
    const before = keys.map((key) => this.snapshot(key));
    const outcome = this.svm.sendTransaction(svmTransaction(tx));
    const after = keys.map((key) => this.snapshot(key));
    // A fresh blockhash per transaction, as on a live cluster; it also keeps identical payments distinct.
    this.svm.expireBlockhash();

    const failed = outcome instanceof FailedTransactionMetadata;
    const meta: TransactionMetadata = failed ? outcome.meta() : outcome;
    const err = failed ? rpcTransactionError(outcome.err()) : null;
    const signature = encodeBase58(tx.signatures[0]!);
    const tokenBalances = (snapshots: Snapshot[]) => snapshots.flatMap((s, accountIndex) => (s.token ? [{ accountIndex, ...s.token }] : []));
    const preBalances = before.map((s) => s.lamports);
    const postBalances = after.map((s) => s.lamports);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

    const result: RpcTransaction = {
      slot: Number(slot),
      blockTime: Number(this.svm.getClock().unixTimestamp),
      version: message.version,
      meta: {
        err,
        status: err === null ? { Ok: null } : { Err: err },
        // Lamports are conserved among the transaction's accounts except for the fee the runtime takes.
        fee: sum(preBalances) - sum(postBalances),
        preBalances,
        postBalances,
        preTokenBalances: tokenBalances(before),
        postTokenBalances: tokenBalances(after),
        innerInstructions: meta.innerInstructions().flatMap((inner, index) =>
          inner.length === 0
            ? []
            : [
                {
                  index,
                  instructions: inner.map((ix) => ({
                    programIdIndex: ix.instruction().programIdIndex(),
                    accounts: [...ix.instruction().accounts()],
                    data: encodeBase58(ix.instruction().data()),
                    stackHeight: ix.stackHeight(),
                  })),
                },
              ],
        ),
        logMessages: meta.logs(),
        rewards: [],
        loadedAddresses: { writable: loaded.writable.map((k) => k.toBase58()), readonly: loaded.readonly.map((k) => k.toBase58()) },
        computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
      },
      transaction: { message: rpcMessage(tx), signatures: tx.signatures.map(encodeBase58) },
    };
    return { signature, ok: !failed, result };
  }

  /** An account's lamports and, for a token account, its balance as the RPC reports it. */
  private snapshot(key: PublicKey): Snapshot {
    const account = this.svm.getAccount(asAddress(key));
    if (!account.exists) return { lamports: 0, token: null };
    const programId = new PublicKey(account.programAddress);
    const info = {
      data: Buffer.from(account.data),
      executable: account.executable,
      lamports: Number(account.lamports),
      owner: programId,
      rentEpoch: 0,
    };
    const isTokenProgram = programId.equals(TOKEN_PROGRAM_ID) || programId.equals(TOKEN_2022_PROGRAM_ID);
    if (!isTokenProgram || account.data.length < 165) return { lamports: info.lamports, token: null };
    const token = unpackAccount(key, info, programId);
    const mintAccount = this.svm.getAccount(asAddress(token.mint));
    if (!mintAccount.exists) throw new Error("token account without its mint");
    const { decimals } = unpackMint(token.mint, { ...info, data: Buffer.from(mintAccount.data) }, programId);
    return {
      lamports: info.lamports,
      token: {
        mint: token.mint.toBase58(),
        owner: token.owner.toBase58(),
        programId: programId.toBase58(),
        uiTokenAmount: uiTokenAmount(token.amount, decimals),
      },
    };
  }
}
