/**
 * A Solana JSON-RPC node over a litesvm ledger, on a real HTTP port: what FakeSolanaRpc answers
 * (getTransaction, getSignatureStatuses) for every transaction it executed, plus the reads and the send an
 * operator needs: getLatestBlockhash, getBlockHeight, sendTransaction (preflight simulated, then executed
 * by litesvm), getAccountInfo, getMultipleAccounts, getSignaturesForAddress (with memos, as a node formats
 * them) and getMinimumBalanceForRentExemption. Account state is always litesvm's latest; a transaction
 * is `finalized` at once unless `hold` keeps it `confirmed` until `release()`.
 */
import { PublicKey, VersionedTransaction } from "@solana/web3.js";
import type { Executed, SolanaLedger } from "./solana-ledger";
import { FakeSolanaRpc, RANK, type Commitment, type JsonRpcRequest } from "./solana-rpc-server";

const MEMO_PROGRAMS = new Set(["MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr", "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo"]);
/** A node accepts a blockhash for 150 blocks. */
const BLOCKHASH_LIFETIME = 150;

interface HistoryEntry {
  signature: string;
  slot: number;
  err: unknown;
  memo: string | null;
  blockTime: number;
}

type Address = Parameters<SolanaLedger["svm"]["getAccount"]>[0];

export class LedgerRpc extends FakeSolanaRpc {
  /** false: sendTransaction skips the preflight simulation (as when state changes between simulation and execution) */
  preflight = true;
  /** true: transactions executed from now on stay `confirmed` until `release()` */
  hold = false;
  /** what sendTransaction executed, in order */
  readonly executed: Executed[] = [];
  private readonly history = new Map<string, HistoryEntry[]>();
  private readonly hooks = new Map<string, () => void>();
  private loseSend: "none" | "answer" | "transaction" = "none";
  private parked: (() => void)[] | null = null;

  /** blockhashes handed out, with the last block height a node accepts each at */
  private readonly blockhashes = new Map<string, number>();

  constructor(readonly ledger: SolanaLedger) {
    super();
    // litesvm accepts only its latest blockhash; a node accepts any of the last 150 blocks'. This node checks
    // that itself (send), so two operators that read a blockhash before either sent can both send.
    ledger.svm.withBlockhashCheck(false);
  }

  /** Runs `staging` once, just before answering the next `method` call: a race between an operator's read and its send. */
  before(method: string, staging: () => void): void {
    this.hooks.set(method, staging);
  }

  /**
   * The next sendTransaction answers HTTP 503. "answer": the transaction still runs (the reply was lost);
   * "transaction": it never runs, and the chain moves past its blockhash's lifetime.
   */
  loseNextSend(what: "answer" | "transaction"): void {
    this.loseSend = what;
  }

  /** sendTransaction calls wait from now on, until `unparkSends()`: several operators' transactions in flight at once. */
  parkSends(): void {
    this.parked = [];
  }

  get parkedSends(): number {
    return this.parked?.length ?? 0;
  }

  /** The parked sends go on, in the order they arrived. */
  unparkSends(): void {
    const waiting = this.parked ?? [];
    this.parked = null;
    for (const resume of waiting) resume();
  }

  /** Every held transaction becomes finalized. */
  release(): void {
    this.hold = false;
    for (const entry of this.known.values()) entry.commitment = "finalized";
  }

  protected override async handle(request: Request): Promise<Response> {
    const { method } = (await request.clone().json()) as JsonRpcRequest;
    const parked = this.parked;
    if (method === "sendTransaction" && parked) await new Promise<void>((resume) => parked.push(resume));
    const response = await super.handle(request);
    if (method !== "sendTransaction" || this.loseSend === "none") return response;
    this.loseSend = "none";
    return new Response("Service Unavailable", { status: 503 });
  }

  protected override answer(request: JsonRpcRequest): unknown {
    const { id, method, params = [] } = request;
    const hook = this.hooks.get(method);
    this.hooks.delete(method);
    hook?.();
    const result = (value: unknown) => ({ jsonrpc: "2.0", id, result: value });
    const context = { apiVersion: "2.2.7", slot: this.height };
    switch (method) {
      case "getLatestBlockhash": {
        const blockhash = this.ledger.svm.latestBlockhash();
        if (!this.blockhashes.has(blockhash)) this.blockhashes.set(blockhash, this.height + BLOCKHASH_LIFETIME);
        return result({ context, value: { blockhash, lastValidBlockHeight: this.blockhashes.get(blockhash) } });
      }
      case "getBlockHeight":
        return result(this.height);
      case "getMinimumBalanceForRentExemption":
        return result(Number(this.ledger.svm.minimumBalanceForRentExemption(BigInt(params[0] as number))));
      case "getAccountInfo":
        return result({ context, value: this.account(params[0] as string) });
      case "getMultipleAccounts":
        return result({ context, value: (params[0] as string[]).map((address) => this.account(address)) });
      case "getSignaturesForAddress":
        return result(this.signaturesFor(...(params as [string, { limit?: number; before?: string; commitment?: Commitment }])));
      case "sendTransaction":
        return this.send(id, params as [string, { encoding?: string; skipPreflight?: boolean }]);
      default:
        return super.answer(request);
    }
  }

  private get height(): number {
    return Number(this.ledger.slot);
  }

  private send(id: JsonRpcRequest["id"], [wire, config = {}]: [string, { encoding?: string; skipPreflight?: boolean }]): unknown {
    if (config.encoding !== "base64") return { jsonrpc: "2.0", id, error: { code: -32602, message: "this node takes base64 only" } };
    const tx = VersionedTransaction.deserialize(Buffer.from(wire, "base64"));
    if (this.loseSend === "transaction") {
      this.ledger.svm.warpToSlot(this.ledger.slot + BigInt(BLOCKHASH_LIFETIME + 1));
      this.ledger.svm.expireBlockhash(); // the blocks produced meanwhile each have their own
      return { jsonrpc: "2.0", id, result: "lost" };
    }
    const lastValid = this.blockhashes.get(tx.message.recentBlockhash);
    if (lastValid === undefined || this.height > lastValid) {
      const data = { err: "BlockhashNotFound", logs: [], accounts: null, unitsConsumed: 0 };
      return { jsonrpc: "2.0", id, error: { code: -32002, message: "Transaction simulation failed: Blockhash not found", data } };
    }
    const failure = this.preflight && !config.skipPreflight ? this.ledger.simulate(tx) : null;
    if (failure) {
      const message = `Transaction simulation failed: ${JSON.stringify(failure.err)}`;
      return {
        jsonrpc: "2.0",
        id,
        error: { code: -32002, message, data: { err: failure.err, logs: failure.logs, accounts: null, unitsConsumed: 0 } },
      };
    }
    const executed = this.ledger.run(tx);
    this.executed.push(executed);
    this.put(executed.signature, executed.result, this.hold ? "confirmed" : "finalized");
    const entry: HistoryEntry = {
      signature: executed.signature,
      slot: executed.result.slot,
      err: executed.result.meta.err,
      memo: memoOf(tx),
      blockTime: 0,
    };
    for (const key of tx.message.staticAccountKeys) this.history.set(key.toBase58(), [entry, ...(this.history.get(key.toBase58()) ?? [])]);
    this.ledger.svm.warpToSlot(this.ledger.slot + 1n); // one transaction a slot, so each has its own
    return { jsonrpc: "2.0", id, result: executed.signature };
  }

  private account(address: string): unknown {
    const account = this.ledger.svm.getAccount(address as Address);
    if (!account.exists) return null;
    return {
      data: [Buffer.from(account.data).toString("base64"), "base64"],
      executable: account.executable,
      lamports: Number(account.lamports),
      owner: account.programAddress,
      rentEpoch: 0,
      space: account.data.length,
    };
  }

  /** Newest first, at least `confirmed`, as a node pages them. */
  private signaturesFor(
    address: string,
    { limit = 1000, before, commitment = "finalized" }: { limit?: number; before?: string; commitment?: Commitment } = {},
  ) {
    let entries = (this.history.get(new PublicKey(address).toBase58()) ?? []).map((entry) => ({
      ...entry,
      confirmationStatus: this.known.get(entry.signature)!.commitment,
    }));
    entries = entries.filter((entry) => RANK[entry.confirmationStatus] >= RANK[commitment]);
    if (before) {
      const at = entries.findIndex((entry) => entry.signature === before);
      entries = at < 0 ? [] : entries.slice(at + 1);
    }
    return entries.slice(0, limit);
  }
}

/** Memos as a node lists them for an address: "[length] text", several joined by "; ". */
function memoOf(tx: VersionedTransaction): string | null {
  const message = tx.message;
  const memos = message.compiledInstructions
    .filter((ix) => MEMO_PROGRAMS.has(message.staticAccountKeys[ix.programIdIndex]!.toBase58()))
    .map((ix) => new TextDecoder().decode(ix.data))
    .map((text) => `[${new TextEncoder().encode(text).length}] ${text}`);
  return memos.length ? memos.join("; ") : null;
}
