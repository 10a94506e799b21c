/**
 * The metering write path: group commit. Each request joins a queue and waits; a flush takes what
 * has queued (up to `maxBatch`) and settles all of it in ONE transaction:
 *   1. read stored outcomes of idempotency keys already used (retries: they consume nothing)
 *   2. lock the usage counters and credit grants the batch spends from, in a fixed order
 *   3. decide each request in arrival order against the locked values (pure, in memory)
 *   4. write events, counters and grants, and publish the new values, then commit
 * A request is answered only after its batch committed, so an acknowledged unit is durable. Limits
 * are exact on any number of instances because every decision is made under the row locks.
 * Up to `maxConcurrent` batches run at once; they serialise only where they share a counter.
 */
import type { Sql, TransactionSql } from "../../db/client";
import { queries, run } from "../../db/queries";
import type { Environment } from "../../auth/kinds";
import type { Clock } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { counterKey } from "./compute";
import { publishChange, usageChanges, type BalanceValue, type Change, type CounterValue } from "./changes";

const Q = queries([
  "event_find_by_idempotency_many",
  "usage_counter_lock_many",
  "usage_counter_set_many",
  "credit_grant_lock_many",
  "credit_grant_set_remaining_many",
  "event_insert_many",
]);

export type Outcome = "accepted" | "limit_reached" | "insufficient_credits" | "feature_not_enabled";

/** What to enforce for one request, decided from the cached catalog before it is queued. */
export type Enforcement =
  | { kind: "record" } // not a metered feature, or an unlimited one: record the event only
  | { kind: "deny" } // feature not enabled for the company: record the refusal
  | { kind: "quota"; periodStart: number; limit: bigint }
  | { kind: "credit"; creditsPerUse: bigint };

export interface MeterRequest {
  teamId: string;
  environment: Environment;
  source: "events" | "consume";
  name: string;
  companyId: string | null;
  userId: string | null;
  featureId: string | null;
  quantity: bigint;
  traits: Record<string, unknown>;
  idempotencyKey: string | null;
  enforcement: Enforcement;
}

export interface MeterResult {
  outcome: Outcome;
  eventId: string;
  companyId: string | null;
  userId: string | null;
  /** true when this answers a retry with the stored outcome of the first attempt */
  replayed: boolean;
}

interface Pending {
  request: MeterRequest;
  resolve(result: MeterResult): void;
  reject(error: unknown): void;
}

// Retried whole: a deadlock, a serialisation failure, or an idempotency key committed by another
// instance while this batch ran (the retry then finds and replays it).
const RETRYABLE = new Set(["40P01", "40001", "23505"]);
const MAX_ATTEMPTS = 5;

const tenantKey = (r: { teamId: string; environment: string }) => `${r.teamId}|${r.environment}`;
const idempotencyKeyOf = (r: MeterRequest) => (r.idempotencyKey === null ? null : `${r.teamId}|${r.environment}|${r.source}|${r.idempotencyKey}`);
const companyKeyOf = (r: MeterRequest) => `${r.teamId}|${r.environment}|${r.companyId}`;

export interface MeterOptions {
  maxBatch: number;
  maxConcurrent: number;
}

export class Meter {
  private queue: Pending[] = [];
  private running = 0;
  private readonly sameKey = new Map<string, Promise<MeterResult>>();
  private idle: (() => void)[] = [];

  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
    /** receives the changes of each committed batch, to update this instance's caches at once */
    private readonly onCommitted: (changes: Change[]) => void,
    private readonly options: MeterOptions = { maxBatch: 2000, maxConcurrent: 2 },
  ) {}

  submit(request: MeterRequest): Promise<MeterResult> {
    const key = idempotencyKeyOf(request);
    if (key !== null) {
      // The same key twice in flight on this instance: the second waits for the first's outcome.
      const first = this.sameKey.get(key);
      if (first) return first.then((r) => ({ ...r, replayed: true }));
    }
    const promise = new Promise<MeterResult>((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.pump();
    });
    if (key !== null) {
      this.sameKey.set(key, promise);
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

  private pump(): void {
    while (this.running < this.options.maxConcurrent && this.queue.length > 0) {
      const batch = this.queue.length <= this.options.maxBatch ? this.queue : this.queue.slice(0, this.options.maxBatch);
      this.queue = batch === this.queue ? [] : this.queue.slice(this.options.maxBatch);
      this.running++;
      void this.flush(batch).finally(() => {
        this.running--;
        this.pump();
        if (this.running === 0 && this.queue.length === 0) for (const done of this.idle.splice(0)) done();
      });
    }
  }

  private async flush(batch: Pending[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { results, changes } = await this.settle(batch.map((p) => p.request));
        this.onCommitted(changes);
        batch.forEach((p, i) => p.resolve(results[i]!));
        return;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (attempt < MAX_ATTEMPTS && code !== undefined && RETRYABLE.has(code)) continue;
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
  }

  /** One transaction for the whole batch; returns each request's result, in order. */
  private async settle(requests: MeterRequest[]): Promise<{ results: MeterResult[]; changes: Change[] }> {
    const now = this.clock.now();
    return (await this.sql.begin(async (tx) => {
      const replays = await findReplays(tx, requests);
      const fresh = requests.filter((r) => !replays.has(idempotencyKeyOf(r) ?? ""));
      const [counters, lots] = await Promise.all([lockCounters(tx, fresh), lockCredits(tx, fresh, now)]);
      const touchedCounters = new Set<string>();
      const touchedCompanies = new Set<string>();

      const results: MeterResult[] = [];
      const rows: EventRow[] = [];
      for (const r of requests) {
        const key = idempotencyKeyOf(r);
        // submit() keeps one request per key in flight here, so a batch never holds a key twice.
        const stored = key === null ? undefined : replays.get(key);
        if (stored) {
          results.push({ ...stored, replayed: true });
          continue;
        }
        const { outcome, creditsBurned } = decideOne(r, counters, lots, touchedCounters, touchedCompanies);
        const result: MeterResult = { outcome, eventId: newId("evt"), companyId: r.companyId, userId: r.userId, replayed: false };
        results.push(result);
        rows.push({ request: r, result, creditsBurned });
      }

      const changes = collectChanges(counters, touchedCounters, lots, touchedCompanies);
      await Promise.all([
        insertEvents(tx, rows, now),
        writeCounters(tx, counters, touchedCounters),
        writeCredits(tx, lots, touchedCompanies),
        ...changes.map((c) => publishChange(tx, c)),
      ]);
      return { results, changes };
    })) as { results: MeterResult[]; changes: Change[] };
  }
}

interface EventRow {
  request: MeterRequest;
  result: MeterResult;
  creditsBurned: bigint;
}

interface LockedCounter {
  teamId: string;
  environment: Environment;
  companyId: string;
  featureId: string;
  periodStart: number;
  used: bigint;
}

interface LockedLot {
  id: string;
  /** as locked, to write back only the lots this batch spent from */
  initial: bigint;
  remaining: bigint;
  expiresAt: number | null;
}

interface CompanyLots {
  teamId: string;
  environment: Environment;
  companyId: string;
  lots: LockedLot[];
}

const fullCounterKey = (r: { teamId: string; environment: string; companyId: string | null; featureId: string | null }, periodStart: number) =>
  `${r.teamId}|${r.environment}|${r.companyId}|${counterKey(r.featureId!, periodStart)}`;

async function findReplays(tx: TransactionSql, requests: MeterRequest[]): Promise<Map<string, MeterResult>> {
  const keyed = requests.filter((r) => r.idempotencyKey !== null);
  const out = new Map<string, MeterResult>();
  if (keyed.length === 0) return out;
  const rows = await run<{ team_id: string; environment: string; source: string; idempotency_key: string; id: string; outcome: Outcome; company_id: string | null; user_id: string | null }>(
    tx,
    Q.event_find_by_idempotency_many,
    [keyed.map((r) => r.teamId), keyed.map((r) => r.environment), keyed.map((r) => r.source), keyed.map((r) => r.idempotencyKey!)],
  );
  for (const row of rows) {
    out.set(`${row.team_id}|${row.environment}|${row.source}|${row.idempotency_key}`, {
      outcome: row.outcome,
      eventId: row.id,
      companyId: row.company_id,
      userId: row.user_id,
      replayed: true,
    });
  }
  return out;
}

async function lockCounters(tx: TransactionSql, requests: MeterRequest[]): Promise<Map<string, LockedCounter>> {
  const wanted = new Map<string, MeterRequest & { enforcement: { kind: "quota" } }>();
  for (const r of requests) if (r.enforcement.kind === "quota") wanted.set(fullCounterKey(r, r.enforcement.periodStart), r as never);
  const out = new Map<string, LockedCounter>();
  if (wanted.size === 0) return out;
  const list = [...wanted.values()];
  const rows = await run<{ team_id: string; environment: Environment; company_id: string; feature_id: string; period_ms: bigint; used: bigint }>(tx, Q.usage_counter_lock_many, [
    list.map((r) => r.teamId),
    list.map((r) => r.environment),
    list.map((r) => r.companyId!),
    list.map((r) => r.featureId!),
    list.map((r) => new Date(r.enforcement.periodStart).toISOString()),
  ]);
  for (const row of rows) {
    const c: LockedCounter = { teamId: row.team_id, environment: row.environment, companyId: row.company_id, featureId: row.feature_id, periodStart: Number(row.period_ms), used: row.used };
    out.set(fullCounterKey(c, c.periodStart), c);
  }
  return out;
}

async function lockCredits(tx: TransactionSql, requests: MeterRequest[], now: number): Promise<Map<string, CompanyLots>> {
  const companies = new Map<string, MeterRequest>();
  for (const r of requests) if (r.enforcement.kind === "credit") companies.set(companyKeyOf(r), r);
  const out = new Map<string, CompanyLots>();
  for (const r of companies.values()) out.set(companyKeyOf(r), { teamId: r.teamId, environment: r.environment, companyId: r.companyId!, lots: [] });
  if (companies.size === 0) return out;
  const list = [...companies.values()];
  const rows = await run<{ id: string; team_id: string; environment: string; company_id: string; remaining: bigint; expires_at: Date | null }>(tx, Q.credit_grant_lock_many, [
    list.map((r) => r.teamId),
    list.map((r) => r.environment),
    list.map((r) => r.companyId!),
    new Date(now),
  ]);
  for (const row of rows) {
    out.get(`${row.team_id}|${row.environment}|${row.company_id}`)!.lots.push({ id: row.id, initial: row.remaining, remaining: row.remaining, expiresAt: row.expires_at?.getTime() ?? null });
  }
  return out;
}

/** Decides one request against the locked values and spends from them when it is accepted. */
function decideOne(
  r: MeterRequest,
  counters: Map<string, LockedCounter>,
  credits: Map<string, CompanyLots>,
  touchedCounters: Set<string>,
  touchedCompanies: Set<string>,
): { outcome: Outcome; creditsBurned: bigint } {
  const e = r.enforcement;
  if (e.kind === "record") return { outcome: "accepted", creditsBurned: 0n };
  if (e.kind === "deny") return { outcome: "feature_not_enabled", creditsBurned: 0n };
  if (e.kind === "quota") {
    const key = fullCounterKey(r, e.periodStart);
    const counter = counters.get(key)!;
    if (counter.used + r.quantity > e.limit) return { outcome: "limit_reached", creditsBurned: 0n };
    counter.used += r.quantity;
    touchedCounters.add(key);
    return { outcome: "accepted", creditsBurned: 0n };
  }
  const company = credits.get(companyKeyOf(r))!;
  const cost = e.creditsPerUse * r.quantity;
  let balance = 0n;
  for (const lot of company.lots) balance += lot.remaining;
  if (balance < cost) return { outcome: "insufficient_credits", creditsBurned: 0n };
  let owed = cost;
  for (const lot of company.lots) {
    if (owed === 0n) break;
    const take = lot.remaining < owed ? lot.remaining : owed;
    lot.remaining -= take;
    owed -= take;
  }
  touchedCompanies.add(companyKeyOf(r));
  return { outcome: "accepted", creditsBurned: cost };
}

function collectChanges(counters: Map<string, LockedCounter>, touchedCounters: Set<string>, credits: Map<string, CompanyLots>, touchedCompanies: Set<string>): Change[] {
  const byTenant = new Map<string, { teamId: string; environment: Environment; counters: CounterValue[]; balances: BalanceValue[] }>();
  const tenant = (x: { teamId: string; environment: Environment }) => {
    let t = byTenant.get(tenantKey(x));
    if (!t) byTenant.set(tenantKey(x), (t = { teamId: x.teamId, environment: x.environment, counters: [], balances: [] }));
    return t;
  };
  for (const key of touchedCounters) {
    const c = counters.get(key)!;
    tenant(c).counters.push([c.companyId, c.featureId, c.periodStart, c.used.toString()]);
  }
  for (const key of touchedCompanies) {
    const c = credits.get(key)!;
    tenant(c).balances.push([c.companyId, c.lots.filter((l) => l.remaining > 0n).map((l) => [l.remaining.toString(), l.expiresAt])]);
  }
  return [...byTenant.values()].flatMap((t) => usageChanges(t, t.counters, t.balances));
}

function insertEvents(tx: TransactionSql, rows: EventRow[], now: number): Promise<unknown> {
  if (rows.length === 0) return Promise.resolve();
  const sentAt = new Date(now).toISOString();
  const col = <T>(f: (row: EventRow) => T) => rows.map(f);
  return run(tx, Q.event_insert_many, [
    col((x) => x.result.eventId),
    col((x) => x.request.teamId),
    col((x) => x.request.environment),
    col((x) => x.request.source),
    col((x) => x.request.name),
    col((x) => x.request.companyId) as string[],
    col((x) => x.request.userId) as string[],
    col((x) => x.request.featureId) as string[],
    col((x) => x.request.quantity.toString()),
    col((x) => x.creditsBurned.toString()),
    col((x) => x.result.outcome),
    col((x) => JSON.stringify(x.request.traits)),
    col((x) => x.request.idempotencyKey) as string[],
    col(() => sentAt),
  ]);
}

function writeCounters(tx: TransactionSql, counters: Map<string, LockedCounter>, touched: Set<string>): Promise<unknown> {
  if (touched.size === 0) return Promise.resolve();
  const list = [...touched].map((k) => counters.get(k)!);
  return run(tx, Q.usage_counter_set_many, [
    list.map((c) => c.teamId),
    list.map((c) => c.environment),
    list.map((c) => c.companyId),
    list.map((c) => c.featureId),
    list.map((c) => new Date(c.periodStart).toISOString()),
    list.map((c) => c.used.toString()),
  ]);
}

function writeCredits(tx: TransactionSql, credits: Map<string, CompanyLots>, touched: Set<string>): Promise<unknown> {
  if (touched.size === 0) return Promise.resolve();
  const lots = [...touched].flatMap((k) => {
    const c = credits.get(k)!;
    return c.lots.filter((lot) => lot.remaining !== lot.initial).map((lot) => ({ teamId: c.teamId, environment: c.environment, lot }));
  });
  return run(tx, Q.credit_grant_set_remaining_many, [lots.map((l) => l.teamId), lots.map((l) => l.environment), lots.map((l) => l.lot.id), lots.map((l) => l.lot.remaining.toString())]);
}
