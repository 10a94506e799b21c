/**
 * The entitlement queries: a tenant's catalog and a company's state as the caches load them, credit grants, and
 * the metering statement meter_settle() with its parameters (see sql/queries/meter_settle.sql) and the events it wrote.
 */
import { queries, run, runOne, type Db } from "../../db/queries";
import { newTimeOrderedId } from "../../lib/ids";
import { newId } from "../../lib/ids";
import type { Environment, Tenant } from "../../lib/tenant";
import type { FeatureType } from "../catalog/schemas";
import type { CreditGrant, GrantRow, StateRow } from "./rows";
import type { Change } from "../changes/publish";
import type { MeterRequest, Outcome } from "./usage";

const Q = queries([
  "meter_settle",
  "event_request_find_many",
  "event_set_user_many",
  "catalog_feature_list",
  "catalog_grant_list",
  "company_state_find",
  "company_id_find_by_ref",
  "credit_grant_lock_many",
  "credit_grant_insert",
  "event_forget_credit_refusal",
]);

/**
 * The statement's parameters: one record of the requests as parallel arrays, plus the batch's distinct counters
 * and credit companies, each request pointing at its own by a 1-based slot; then the batch's time.
 */
function settleParams(requests: MeterRequest[], now: number) {
  const counterSlots = new Map<string, number>();
  const creditSlots = new Map<string, number>();
  const counters = { team: [] as string[], env: [] as string[], company: [] as string[], feature: [] as string[], period: [] as string[] };
  const credits = { team: [] as string[], env: [] as string[], company: [] as string[] };
  const counterSlot: (string | null)[] = [];
  const creditSlot: (string | null)[] = [];
  const limit: (string | null)[] = [];
  const perUse: (string | null)[] = [];
  for (const r of requests) {
    const e = r.enforcement;
    let counter: number | null = null;
    let credit: number | null = null;
    if (e.kind === "quota") {
      const key = `${r.teamId}|${r.environment}|${r.companyId}|${r.featureId}|${e.periodStart}`;
      counter = counterSlots.get(key) ?? null;
      if (counter === null) {
        counterSlots.set(key, (counter = counterSlots.size + 1));
        counters.team.push(r.teamId);
        counters.env.push(r.environment);
        counters.company.push(r.companyId!);
        counters.feature.push(r.featureId!);
        counters.period.push(new Date(e.periodStart).toISOString());
      }
    } else if (e.kind === "credit") {
      const key = `${r.teamId}|${r.environment}|${r.companyId}`;
      credit = creditSlots.get(key) ?? null;
      if (credit === null) {
        creditSlots.set(key, (credit = creditSlots.size + 1));
        credits.team.push(r.teamId);
        credits.env.push(r.environment);
        credits.company.push(r.companyId!);
      }
    }
    counterSlot.push(counter === null ? null : String(counter));
    creditSlot.push(credit === null ? null : String(credit));
    limit.push(e.kind === "quota" ? e.limit.toString() : null);
    perUse.push(e.kind === "credit" ? e.creditsPerUse.toString() : null);
  }
  const col = <T>(f: (r: MeterRequest) => T) => requests.map(f);
  // One named record of parallel arrays (see meter_settle.sql), then the batch's time.
  const batch = {
    id: requests.map(() => newTimeOrderedId("evt", now)),
    team_id: col((r) => r.teamId),
    environment: col((r) => r.environment),
    source: col((r) => r.source),
    name: col((r) => r.name),
    company_id: col((r) => r.companyId),
    user_id: col((r) => r.userId),
    feature_id: col((r) => r.featureId),
    quantity: col((r) => r.quantity.toString()),
    traits: col((r) => JSON.stringify(r.traits)),
    idempotency_key: col((r) => r.idempotencyKey),
    kind: col((r) => r.enforcement.kind),
    limit_amount: limit,
    credits_per_use: perUse,
    counter_slot: counterSlot,
    credit_slot: creditSlot,
    counter_team_id: counters.team,
    counter_environment: counters.env,
    counter_company_id: counters.company,
    counter_feature_id: counters.feature,
    counter_period_start: counters.period,
    credit_team_id: credits.team,
    credit_environment: credits.env,
    credit_company_id: credits.company,
  };
  return [batch, new Date(now)];
}

/** What meter_settle() returns: per request [outcome, eventId, companyId, userId, replayed], and the notices it published. */
interface Settled {
  r: [Outcome, string, string | null, string | null, boolean][];
  changes: Change[];
}

/** Decides and writes a batch in one statement (see meter.ts); `now` is the batch's time. */
export async function settleBatch(db: Db, requests: MeterRequest[], now: number): Promise<Settled> {
  const row = await runOne<{ settled: Settled }>(db, Q.meter_settle, settleParams(requests, now));
  return row!.settled;
}

/** The name and quantity each stored event was first recorded with (the request of each event id, same order). */
export const findEventRequests = (db: Db, eventIds: string[], requests: { teamId: string; environment: Environment }[]) =>
  run<{ id: string; name: string; quantity: bigint }>(db, Q.event_request_find_many, [
    eventIds,
    requests.map((r) => r.teamId),
    requests.map((r) => r.environment),
  ]);

/** Sets the user id on stored events (parallel arrays: event, user, team, environment). */
export const setEventUsers = (db: Db, fix: { ids: string[]; users: (string | null)[]; teams: string[]; envs: string[] }) =>
  run(db, Q.event_set_user_many, [fix.ids, fix.users as string[], fix.teams, fix.envs]);

export const listCatalogFeatures = (db: Db, t: Tenant) =>
  run<{ id: string; name: string; feature_key: string; feature_type: FeatureType; event_key: string }>(db, Q.catalog_feature_list, [
    t.teamId,
    t.environment,
  ]);

export const listCatalogGrants = (db: Db, t: Tenant) =>
  run<GrantRow & { plan_id: string; feature_id: string }>(db, Q.catalog_grant_list, [t.teamId, t.environment]);

/** A company by any of its keys, with the counters of periods started since `oldestPeriodStart` (and lifetime ones). */
export const findCompanyState = (db: Db, t: Tenant, ref: string, at: { now: Date; oldestPeriodStart: Date }) =>
  runOne<StateRow>(db, Q.company_state_find, [t.teamId, t.environment, ref, at.now, at.oldestPeriodStart]);

export const findCompanyIdByRef = async (db: Db, t: Tenant, ref: string) =>
  (await runOne<{ id: string }>(db, Q.company_id_find_by_ref, [t.teamId, t.environment, ref]))?.id ?? null;

/** Locks the company's spendable credit grants, in burn order, for the rest of the transaction. */
export const lockCreditGrants = (db: Db, t: Tenant, companyId: string, now: number) =>
  run<{ remaining: bigint; expires_at: Date | null }>(db, Q.credit_grant_lock_many, [[t.teamId], [t.environment], [companyId], new Date(now)]);

export const insertCreditGrant = async (db: Db, t: Tenant, companyId: string, g: { amount: bigint; reason?: string; expiresAt?: Date | null }) =>
  (await runOne<CreditGrant>(db, Q.credit_grant_insert, [
    newId("cgr"),
    t.teamId,
    t.environment,
    companyId,
    g.amount,
    g.reason ?? null,
    g.expiresAt ?? null,
  ]))!;

/** Drops the stored insufficient-credit refusal of a key once credits were bought for its request, so a retry is decided again. */
export const forgetCreditRefusal = (db: Db, t: Tenant, r: { source: "events" | "consume"; companyId: string; idempotencyKey: string }) =>
  runOne(db, Q.event_forget_credit_refusal, [t.teamId, t.environment, r.source, r.companyId, r.idempotencyKey]);
