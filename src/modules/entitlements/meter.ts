/**
 * The metering write path: group commit. Each request joins a queue and waits; a flush takes what
 * has queued (up to `maxBatch`) and settles all of it in ONE statement, meter_settle() (defined in
 * sql/functions/meter_settle.sql), which in one transaction:
 *   1. reads stored outcomes of idempotency keys already used (retries: they consume nothing)
 *   2. creates missing usage counters, then locks the counters and credit grants the batch spends
 *      from, in a fixed order
 *   3. decides each request in arrival order against the locked values
 *   4. writes events, counters and grants, and publishes the new values
 * One statement is one round trip: the batch's latency, and the client's and database's work per
 * event, are what the hot path is made of (a statement per step cost four round trips a batch).
 * A request is answered only after its batch committed, so an acknowledged unit is durable. Limits
 * are exact on any number of instances because every decision is made under the row locks.
 * Up to `maxConcurrent` batches run at once; they serialise only where they share a counter.
 * A request may carry the writes of who it is about (IdentityWrite): a batch holding any runs them and
 * meter_settle() in one transaction (identity.ts), so nothing a request writes outlives its event.
 */
import type { Sql } from "../../db/client";
import type { Db } from "../../db/queries";
import type { Clock } from "../../lib/clock";
import { apiError } from "../../lib/errors";
import { findEventRequests, settleBatch } from "./repo";
import { RequestFailed, settleWithIdentity } from "./identity";
import type { BatchSettlement, MeterRequest, MeterResult } from "./usage";
import type { Change } from "../changes/publish";

interface Pending {
  request: MeterRequest;
  resolve(result: MeterResult): void;
  reject(error: unknown): void;
}

// Retried whole: a deadlock, a serialisation failure, or an idempotency key committed by another
// instance while this batch ran (the retry then finds and replays it).
const RETRYABLE = new Set(["40P01", "40001", "23505"]);
const MAX_ATTEMPTS = 5;
const isRetryable = (error: unknown) => RETRYABLE.has((error as { code?: string }).code ?? "");

// An idempotency key is unique per tenant, endpoint and company (events_idempotency, migration 00010).
const idempotencyKeyOf = (r: MeterRequest) =>
  r.idempotencyKey === null ? null : `${r.teamId}|${r.environment}|${r.source}|${r.companyId ?? ""}|${r.idempotencyKey}`;

/** What a retry must repeat: the event (or feature) and the quantity. Traits and user may be refreshed. */
interface Asked {
  name: string;
  quantity: bigint;
}

/**
 * A key already used for a different request: answering the first attempt's outcome would report a
 * use that never happened (IETF draft-ietf-httpapi-idempotency-key-header: 422).
 */
const keyReusedError = (first: Asked) =>
  apiError("idempotency_key_mismatch", "idempotencyKey was already used for a different request", {
    "body.idempotencyKey": `First used for '${first.name}' with quantity ${first.quantity}`,
  });

const sameRequest = (first: Asked, retry: Asked) => first.name === retry.name && first.quantity === retry.quantity;

export interface MeterOptions {
  maxBatch: number;
  maxConcurrent: number;
}

const DEFAULT_OPTIONS: MeterOptions = { maxBatch: 2000, maxConcurrent: 2 };

export class Meter {
  private queue: Pending[] = [];
  private running = 0;
  private pumpScheduled = false;
  private readonly sameKey = new Map<string, { request: MeterRequest; promise: Promise<MeterResult> }>();
  private idle: (() => void)[] = [];

  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
    /** receives the changes of each committed batch, to update this instance's caches at once */
    private readonly onCommitted: (changes: Change[]) => void,
    private readonly options: MeterOptions = DEFAULT_OPTIONS,
    /** told when updating this instance's caches after a commit fails (the answers stand) */
    private readonly onCacheError: (error: unknown) => void = () => {},
  ) {}

  submit(request: MeterRequest): Promise<MeterResult> {
    const key = idempotencyKeyOf(request);
    if (key !== null) {
      // The same key twice in flight on this instance: the second waits for the first's outcome.
      // Decided once the first has settled: if it fails, the key was never used, and this one fails with it.
      const first = this.sameKey.get(key);
      if (first) {
        return first.promise.then((r) => {
          if (!sameRequest(first.request, request)) throw keyReusedError(first.request);
          return { ...r, replayed: true };
        });
      }
    }
    const promise = new Promise<MeterResult>((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.schedulePump();
    });
    if (key !== null) {
      this.sameKey.set(key, { request, promise });
      const forget = () => this.sameKey.delete(key);
      promise.then(forget, forget);
    }
    return promise;
  }

  /** Resolves once everything submitted so far has been settled. */
  drain(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /**
   * Starts batches once the current turn of the event loop is over, not at the first request: requests
   * that arrive together (one socket read can hold many) then settle as one batch, instead of the first
   * one taking a free lane alone and paying a whole transaction for one row.
   */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /**
   * Shares what has queued among the free lanes. Taking it all into one lane left the other idle under
   * steady load: the callers answered by one batch come back together, and one lane took them all
   * while the other waited for stragglers (measured in bench/README.md, "Metered writes").
   */
  private pump(): void {
    while (this.running < this.options.maxConcurrent && this.queue.length > 0) {
      const size = Math.min(this.options.maxBatch, Math.ceil(this.queue.length / (this.options.maxConcurrent - this.running)));
      const batch = this.queue.length <= size ? this.queue : this.queue.slice(0, size);
      this.queue = batch === this.queue ? [] : this.queue.slice(size);
      this.running++;
      void this.flush(batch).finally(() => {
        this.running--;
        this.pump();
        if (this.running === 0 && this.queue.length === 0) for (const done of this.idle.splice(0)) done();
      });
    }
  }

  private async flush(batch: Pending[]): Promise<void> {
    let settled: BatchSettlement;
    for (let attempt = 1; ; attempt++) {
      try {
        settled = await this.settle(batch.map((p) => p.request));
        break;
      } catch (error) {
        if (error instanceof RequestFailed) {
          // The batch was undone because of this one request: it fails alone, the others settle again.
          batch[error.index]!.reject(error.failure);
          const rest = batch.filter((_, i) => i !== error.index);
          if (rest.length) await this.flush(rest);
          return;
        }
        if (attempt < MAX_ATTEMPTS && isRetryable(error)) continue;
        if (batch.length > 1) {
          // One bad request (say, its feature deleted a moment ago) must not fail its neighbours:
          // split the batch until the failure is isolated.
          const half = batch.length >> 1;
          await this.flush(batch.slice(0, half));
          await this.flush(batch.slice(half));
          return;
        }
        batch[0]!.reject(error);
        return;
      }
    }
    // Committed. Nothing from here on may send the batch round the retry loop again: that would record its
    // uses twice. A failure to update this instance's caches is the caches' problem (the next notice or
    // load corrects them), never the answers'.
    try {
      this.onCommitted(settled.changes);
      for (const w of settled.written) w.committed();
    } catch (error) {
      this.onCacheError(error);
    }
    const replays: number[] = [];
    batch.forEach((p, i) => {
      const r = settled.results[i]!;
      if ("error" in r) p.reject(r.error);
      else if (r.replayed) replays.push(i);
      else p.resolve(r);
    });
    if (replays.length)
      await this.answerReplays(
        replays.map((i) => batch[i]!),
        replays.map((i) => settled.results[i] as MeterResult),
      );
  }

  /**
   * A replay is answered only when it repeats the first attempt's request. Outside the retry loop: the
   * batch is committed, and settling it again would record its other events twice.
   */
  private async answerReplays(pending: Pending[], results: MeterResult[]): Promise<void> {
    try {
      const rows = await findEventRequests(
        this.sql,
        results.map((r) => r.eventId),
        pending.map((p) => p.request),
      );
      const firsts = new Map(rows.map((row) => [row.id, { name: row.name, quantity: BigInt(row.quantity) }]));
      pending.forEach((p, i) => {
        const first = firsts.get(results[i]!.eventId);
        if (first && !sameRequest(first, p.request)) p.reject(keyReusedError(first));
        else p.resolve(results[i]!);
      });
    } catch (error) {
      for (const p of pending) p.reject(error); // a later retry replays again
    }
  }

  /**
   * One transaction for the whole batch; returns each request's result (or its own failure), in order.
   * Without identity writes, that transaction is the one meter_settle() statement.
   */
  private async settle(requests: MeterRequest[]): Promise<BatchSettlement> {
    if (!requests.some((r) => r.identity)) return { ...(await this.decide(this.sql, requests)), written: [] };
    return (await this.sql.begin((tx) => settleWithIdentity(tx, requests, (db, rs) => this.decide(db, rs), isRetryable))) as BatchSettlement;
  }

  private async decide(db: Db, requests: MeterRequest[]): Promise<{ results: MeterResult[]; changes: Change[] }> {
    const { r, changes } = await settleBatch(db, requests, this.clock.now());
    const results = r.map(([outcome, eventId, companyId, userId, replayed]) => ({ outcome, eventId, companyId, userId, replayed }));
    return { results, changes };
  }
}
