/**
 * `bun bench/agent-topups.ts`: one auto-topup monitor cycle over BENCH_WALLETS (10,000) configured wallets on anvil,
 * balance reads batched (Multicall3 `aggregate3`, AGENT_TOPUP_BATCH_SIZE calls per eth_call), against the baseline of
 * one single balance read through the same path (the chain worker pool). Figures, never assertions (bench/README.md
 * "Auto-topup monitor").
 *
 * A fresh embedded PostgreSQL (or BENCH_DATABASE_URL) and anvil with Multicall3 at its canonical address
 * (test/helpers/chains/anvil-topups.ts). BENCH_TEAMS teams; BENCH_WALLETS enabled configurations spread over them,
 * written by set-based SQL, every target holding 0 and disarmed (a crossing already dispatched), so a cycle reads
 * and decides for every wallet and sends nothing: what is measured is the read side, which every tick pays.
 *
 * Scenarios, one JSON line each, then a `{"summary": …}` line:
 *  - `single_balance_read`: BENCH_SINGLE reads of one wallet's balance, one at a time (the baseline);
 *  - `balances_10000_chunk_<n>`: the read alone for every wallet, n balanceOf calls per eth_call;
 *  - `monitor_cycle_10000`: BENCH_CYCLES ticks of the monitor (tickNetwork: the database pages, the batched read, the
 *    crossing rule), at the default chunk of 500.
 *
 * Environment: BENCH_WALLETS (10000), BENCH_TEAMS (100), BENCH_SINGLE (200), BENCH_CYCLES (5), BENCH_CHUNKS
 * ("250,500,1000,2000"), BENCH_DATABASE_URL.
 */
import { rm } from "node:fs/promises";
import postgres from "postgres";
import { ChainPool } from "../src/chains/pool";
import type { Sql } from "../src/db/client";
import { startEmbeddedPostgres } from "../src/db/embedded";
import { migrateDatabase } from "../src/db/migrate";
import { ChainRegistry } from "../src/lib/networks";
import { tickNetwork } from "../src/modules/agents/monitor";
import { createTeam } from "../src/modules/teams/team";
import { anvilTopupBed } from "../test/helpers/chains/anvil-topups";
import { freePort, log } from "./procs";

const env = process.env;
const WALLETS = Number(env.BENCH_WALLETS ?? 10_000);
const TEAMS = Number(env.BENCH_TEAMS ?? 100);
const SINGLE = Number(env.BENCH_SINGLE ?? 200);
const CYCLES = Number(env.BENCH_CYCLES ?? 5);
const CHUNKS = (env.BENCH_CHUNKS ?? "250,500,1000,2000").split(",").map(Number);
const DEFAULT_CHUNK = 500;
const print = (figure: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(figure)}\n`);
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

function stats(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!, 2);
  return { p50Ms: at(0.5), p90Ms: at(0.9), maxMs: round(sorted.at(-1)!, 2), meanMs: round(ms.reduce((a, b) => a + b, 0) / ms.length, 2) };
}

async function timed<T>(f: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const result = await f();
  return [performance.now() - start, result];
}

/** BENCH_WALLETS disarmed configurations of random wallets over the teams, in one statement. */
async function seed(sql: Sql, network: string): Promise<string[]> {
  const teams: string[] = [];
  for (let i = 0; i < TEAMS; i++) teams.push((await createTeam(sql, `Bench topups ${i}`)).id);
  const rows = await sql<{ target_wallet: string }[]>`
    insert into agent_topup_configs (id, team_id, environment, network, token_symbol, target_wallet, min_balance_threshold, topup_amount,
      enabled, armed, created_at, updated_at)
    select 'atc_bench' || n, (${teams}::text[])[1 + n % ${TEAMS}], 'development', ${network}, 'USDC',
      '0x' || substr(md5(n::text || random()::text) || md5(random()::text), 1, 40), 1000000, 5000000, true, false, now(), now()
    from generate_series(1, ${WALLETS}) n
    returning target_wallet`;
  return rows.map((r) => r.target_wallet);
}

async function main() {
  let url = env.BENCH_DATABASE_URL;
  const dir = `${new URL("..", import.meta.url).pathname}.data/bench-topups-${Date.now()}`;
  const embedded = url ? null : await startEmbeddedPostgres(dir, freePort(54_391), () => {});
  url ??= embedded!.url;
  const sql = postgres(url, { max: 10, types: { bigint: postgres.BigInt }, onnotice: () => {}, idle_timeout: 60 }) as unknown as Sql;
  const bed = await anvilTopupBed();
  // Straight to anvil: the bed's counting proxy is for tests, and would add a hop to every figure.
  const network = { ...bed.network, rpcUrl: bed.anvil.rpcUrl };
  const chains = new ChainRegistry([network]);
  const pool = new ChainPool({ size: 1, jobTimeoutMs: 120_000, operatorKeys: { SUBSCRIPTION_EVM_OPERATOR_KEY: bed.operatorKey } });
  try {
    await migrateDatabase(sql, url);
    log(`seeding ${WALLETS} configurations over ${TEAMS} teams`);
    const wallets = await seed(sql, network.id);
    const read = (list: string[], chunkSize: number) =>
      pool.topup({ op: "balances", request: { network, token: bed.token, wallets: list, chunkSize } });
    await read(wallets.slice(0, 1), 1); // the worker starts, viem's client and the chain id check warm up

    log(`single_balance_read x${SINGLE}`);
    const singles: number[] = [];
    for (let i = 0; i < SINGLE; i++) singles.push((await timed(() => read([wallets[i % wallets.length]!], 1)))[0]);
    const single = { scenario: "single_balance_read", reads: SINGLE, ...stats(singles) };
    print(single);

    const byChunk: Record<string, unknown>[] = [];
    for (const chunk of CHUNKS) {
      log(`balances_${WALLETS}_chunk_${chunk}`);
      const runs: number[] = [];
      let requests = 0;
      for (let i = 0; i < 3; i++) {
        const [ms, result] = await timed(() => read(wallets, chunk));
        if (!result.ok) throw new Error(`balance read failed: ${result.detail}`);
        runs.push(ms);
        requests = result.requests;
      }
      const figure = { scenario: `balances_${WALLETS}_chunk_${chunk}`, wallets: WALLETS, chunk, rpcRequests: requests, ...stats(runs) };
      byChunk.push(figure);
      print(figure);
    }

    log(`monitor_cycle_${WALLETS} x${CYCLES}`);
    const deps = { sql, chains, pool, now: () => new Date(), batchSize: DEFAULT_CHUNK };
    const cycles: number[] = [];
    let report: Awaited<ReturnType<typeof tickNetwork>> | null = null;
    for (let i = 0; i < CYCLES; i++) {
      const [ms, r] = await timed(() => tickNetwork(deps, network.id));
      cycles.push(ms);
      report = r;
    }
    const cycle = { scenario: `monitor_cycle_${WALLETS}`, wallets: WALLETS, chunk: DEFAULT_CHUNK, ...stats(cycles), report };
    print(cycle);
    const readAtDefault = byChunk.find((f) => f.chunk === DEFAULT_CHUNK) as { p50Ms: number } | undefined;
    print({
      summary: {
        wallets: WALLETS,
        singleReadP50Ms: single.p50Ms,
        cycleP50Ms: cycle.p50Ms,
        cycle_vs_single_read: round(cycle.p50Ms / single.p50Ms, 1),
        perWalletUs: round((cycle.p50Ms / WALLETS) * 1000, 1),
        oneReadPerWalletEstimateMs: round(single.p50Ms * WALLETS, 0),
        oneReadPerWallet_vs_cycle: round((single.p50Ms * WALLETS) / cycle.p50Ms, 1),
        chainReadShareOfCycle: readAtDefault ? round(readAtDefault.p50Ms / cycle.p50Ms, 2) : null,
        rpcRequestsPerCycle: report?.balanceRequests ?? null,
      },
    });
  } finally {
    await pool.close();
    await bed.stop();
    await sql.end({ timeout: 5 }).catch(() => {});
    await embedded?.stop();
    if (embedded) await rm(dir, { recursive: true, force: true });
  }
}

await main();
