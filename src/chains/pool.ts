/**
 * A long-lived pool of Bun Workers that runs chain jobs off the request thread. Each job has a deadline:
 * past it the caller gets `timeout`. A worker that dies fails its jobs with `worker_crashed` and is
 * replaced. A worker that let a job run past its deadline is retired: it takes no new jobs, is replaced
 * at once, and is terminated when its remaining jobs end (each of which has its own deadline).
 * Callers always get a verdict, never an exception.
 */
import type { JobAnswer, JobRequest, JobResponse } from "./jobs";
import type { OperatorKeys } from "../lib/operator-keys";
import {
  refuseOperation,
  type AutopayParties,
  type AutopayResult,
  type ConsentCheck,
  type LookupResult,
  type OperationResult,
  type SubscriptionOperation,
  type SubscriptionRefusal,
} from "./subscription-types";
import type { BalancesResult, FundingResult, TopupLookup, TopupOperation, TopupSendResult, TopupSigned } from "./topup-types";
import { refuse, type ChainFamily, type PaymentExpectation, type PaymentVerdict } from "./types";
import { refuseEscrow, type EscrowConsentCheck, type EscrowOperation, type EscrowReadResult, type EscrowResult } from "./escrow-types";
import { refuseX402, type X402Check, type X402Landing, type X402Operation, type X402Settlement } from "./x402-types";

type JobBody = JobRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;
/** How a job that never got its answer ends: the pool's reason ("timeout", "worker_crashed") and a sentence. */
type Failure = (reason: "timeout" | "worker_crashed", detail: string) => JobAnswer;

export interface ChainPoolOptions {
  size: number;
  jobTimeoutMs: number;
  /** the worker entry; tests pass a misbehaving one */
  workerUrl?: string | URL;
  onWorkerLost?: (reason: string) => void;
  /** the subscription operator keys (src/lib/operator-keys.ts), added to the workers' environment only */
  operatorKeys?: OperatorKeys;
}

interface Pending {
  resolve(verdict: JobAnswer): void;
  fail: Failure;
  timer: ReturnType<typeof setTimeout>;
}

interface Slot {
  worker: Worker;
  inflight: Map<number, Pending>;
  retired: boolean;
}

const FAMILIES: readonly ChainFamily[] = ["evm", "stellar", "solana"];
const DEFAULT_WORKER = new URL("./worker.ts", import.meta.url);

export class ChainPool {
  private slots: Slot[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: ChainPoolOptions) {}

  verifyPayment(expectation: PaymentExpectation): Promise<PaymentVerdict> {
    return this.run({ kind: "verifyPayment", expectation }, refuse) as Promise<PaymentVerdict>;
  }

  /** One subscription operation (src/chains/subscription-types.ts) on the parties' chain family. */
  subscription(operation: Extract<SubscriptionOperation, { op: "readAutopay" }>): Promise<AutopayResult>;
  subscription(operation: Extract<SubscriptionOperation, { op: "lookup" }>): Promise<LookupResult>;
  subscription(operation: Extract<SubscriptionOperation, { op: "verifyConsent" }>): Promise<ConsentCheck>;
  subscription(operation: Extract<SubscriptionOperation, { op: "activate" | "charge" | "revoke" }>): Promise<OperationResult>;
  subscription(operation: SubscriptionOperation): Promise<AutopayResult | LookupResult | OperationResult | ConsentCheck> {
    const family = (operation.request as AutopayParties).network.family;
    return this.run({ kind: "subscription", family, operation }, refuseOperation) as Promise<AutopayResult | LookupResult | OperationResult>;
  }

  /** One escrow operation (src/chains/escrow-types.ts); EVM only, in the worker that holds the EVM operator key. */
  escrow(operation: Extract<EscrowOperation, { op: "read" }>): Promise<EscrowReadResult>;
  escrow(operation: Extract<EscrowOperation, { op: "verifyConsent" }>): Promise<EscrowConsentCheck>;
  escrow(operation: Extract<EscrowOperation, { op: "send" }>): Promise<EscrowResult>;
  escrow(operation: EscrowOperation): Promise<EscrowResult | EscrowReadResult | EscrowConsentCheck> {
    return this.run({ kind: "escrow", operation }, refuseEscrow) as Promise<EscrowResult>;
  }

  /**
   * One auto-topup operation (src/chains/topup-types.ts). It runs in the family's key-holding worker, as subscription
   * jobs do: a send signs with the same operator key, whose nonce only one counter may hand out.
   */
  topup(operation: Extract<TopupOperation, { op: "balances" }>): Promise<BalancesResult>;
  topup(operation: Extract<TopupOperation, { op: "readFunding" }>): Promise<FundingResult>;
  topup(operation: Extract<TopupOperation, { op: "send" }>): Promise<TopupSendResult>;
  topup(operation: Extract<TopupOperation, { op: "lookup" }>): Promise<TopupLookup>;
  topup(operation: Extract<TopupOperation, { op: "sign" }>): Promise<TopupSigned>;
  topup(operation: Extract<TopupOperation, { op: "release" }>): Promise<{ ok: true } | SubscriptionRefusal>;
  topup(operation: TopupOperation): Promise<BalancesResult | FundingResult | TopupSendResult | TopupLookup | TopupSigned | { ok: true }> {
    const family = operation.request.network.family;
    return this.run({ kind: "topup", family, operation }, refuseOperation) as Promise<BalancesResult>;
  }

  /** An x402 check or settlement (src/chains/x402-types.ts): EVM, in the worker that holds the EVM operator key's nonces. */
  x402(operation: Extract<X402Operation, { op: "check" }>): Promise<X402Check>;
  x402(operation: Extract<X402Operation, { op: "settle" }>): Promise<X402Settlement>;
  x402(operation: Extract<X402Operation, { op: "find" }>): Promise<X402Landing>;
  x402(operation: X402Operation): Promise<X402Check | X402Settlement | X402Landing> {
    return this.run({ kind: "x402", operation }, refuseX402) as Promise<X402Check | X402Settlement | X402Landing>;
  }

  private run(body: JobBody, fail: Failure): Promise<JobAnswer> {
    if (this.closed) return Promise.resolve(fail("worker_crashed", "The chain worker pool is shut down"));
    // Workers start with the first job: an instance that never settles a payment never pays for them.
    while (this.slots.length < this.options.size) this.slots.push(this.spawn());
    // Escrow and x402 sends sign with the EVM operator key; subscriptions and top-ups with their family's.
    const slot =
      body.kind === "verifyPayment" ? this.leastBusy() : this.keyHolder(body.kind === "escrow" || body.kind === "x402" ? "evm" : body.family);
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.expire(slot, id), this.options.jobTimeoutMs);
      slot.inflight.set(id, { resolve, fail, timer });
      try {
        slot.worker.postMessage({ ...body, id } as JobRequest);
      } catch {
        this.settle(slot, id, fail("worker_crashed", "The job could not be sent to a chain worker"));
      }
    });
  }

  /** Fails whatever is still running and stops every worker. */
  async close(): Promise<void> {
    this.closed = true;
    for (const slot of this.slots) this.bury(slot, "The chain worker pool is shut down");
    this.slots = [];
  }

  private spawn(): Slot {
    // Bun's Worker takes an `env` (the DOM type does not say so): the keys exist in the workers alone.
    const env = { ...Bun.env, ...this.options.operatorKeys };
    const worker = new Worker(this.options.workerUrl ?? DEFAULT_WORKER, { env } as WorkerOptions);
    const slot: Slot = { worker, inflight: new Map(), retired: false };
    // Bun's Worker can be unref'd (the DOM type does not say so): an idle pool never keeps the process alive.
    (worker as unknown as { unref(): void }).unref();
    worker.onmessage = (event: MessageEvent<JobResponse>) => this.settle(slot, event.data.id, event.data.verdict);
    // An uncaught error or an exit both end the worker; its jobs will never be answered.
    worker.addEventListener("error", (event) => this.lost(slot, `worker error: ${(event as ErrorEvent).message ?? "unknown"}`));
    worker.addEventListener("close", () => this.lost(slot, "worker exited"));
    return slot;
  }

  /**
   * Subscription jobs of a family (and escrow jobs, EVM) all sign with its one operator key, whose next nonce (EVM)
   * or sequence number (Stellar) only one counter can hand out without collisions: they all run in the same worker,
   * which serializes its sends (src/chains/evm/operator.ts). They wait on the network, so one worker runs many at once.
   */
  private keyHolder(family: ChainFamily): Slot {
    return this.slots[FAMILIES.indexOf(family) % this.slots.length]!;
  }

  private leastBusy(): Slot {
    let best = this.slots[0]!;
    for (const slot of this.slots) if (slot.inflight.size < best.inflight.size) best = slot;
    return best;
  }

  private settle(slot: Slot, id: number, verdict: JobAnswer): void {
    const pending = slot.inflight.get(id);
    if (!pending) return; // already timed out; the late answer is dropped
    clearTimeout(pending.timer);
    slot.inflight.delete(id);
    pending.resolve(verdict);
    if (slot.retired && slot.inflight.size === 0) slot.worker.terminate();
  }

  private expire(slot: Slot, id: number): void {
    const pending = slot.inflight.get(id);
    if (pending) this.settle(slot, id, pending.fail("timeout", `The chain job did not finish within ${this.options.jobTimeoutMs} ms`));
    if (slot.retired || this.closed) return;
    // The worker may be stuck (a hung socket, a busy loop): stop feeding it and start a fresh one.
    this.replace(slot);
    if (slot.inflight.size === 0) slot.worker.terminate();
  }

  private lost(slot: Slot, reason: string): void {
    if (this.closed || (!this.slots.includes(slot) && slot.inflight.size === 0)) return;
    this.options.onWorkerLost?.(reason);
    this.bury(slot, "The chain worker stopped during verification");
    // Dropped, not respawned here: the next job starts a new worker. A worker that fails while loading
    // therefore costs one attempt per job, never a respawn loop.
    this.slots = this.slots.filter((s) => s !== slot);
  }

  private replace(slot: Slot): void {
    slot.retired = true;
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots[at] = this.spawn();
  }

  private bury(slot: Slot, detail: string): void {
    for (const [id, pending] of slot.inflight) {
      clearTimeout(pending.timer);
      slot.inflight.delete(id);
      pending.resolve(pending.fail("worker_crashed", detail));
    }
    slot.worker.terminate();
  }
}
