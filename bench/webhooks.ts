/**
 * `bun bench/webhooks.ts`: outbound webhooks on a fresh embedded PostgreSQL (or BENCH_DATABASE_URL), in one
 * run. Figures, never assertions (bench/README.md "Webhooks and the outbox"); one JSON line per figure on
 * stdout, progress on stderr.
 *
 * 1. Deliveries/s. A local receiver (bench/webhook-receiver.ts, its own process, answers 200; `/verify`
 *    checks each signature with the standardwebhooks library) and one endpoint per tenant (`plain` posts to
 *    /hook, `verify` to /verify), with WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE_ADDRESSES on. Each round:
 *    BENCH_MESSAGES companies created through `upsertCompany` in committed transactions (each emits
 *    company.created: message, delivery, job), then a real job runner over the app's task registry
 *    (src/tasks.ts `jobHandlers`, run by src/jobs/runner.ts as `startJobs` does) drains them, at the
 *    production JOB_CONCURRENCY and at BENCH_HIGH_CONCURRENCY. Beside each, in the same round, the
 *    receiver-only baseline: plain fetch POSTs of a stored message body with its signed headers to the same
 *    path at the same concurrency. `vsReceiverOnly` = deliveries/s ÷ POSTs/s: what is left after our cost.
 * 2. The outbox's cost on a state change: a company created through `upsertCompany` in its own transaction,
 *    sequentially, for a tenant with one subscribed endpoint (`with_outbox`: listTargets, message +
 *    delivery, job), a tenant with none (`no_endpoint`: listTargets only) and `no_emit`: the same
 *    statements upsertCompany makes for a new company (find, insert, publish) without the emitEvent call,
 *    composed here since production code has no switch to skip it. Alternating rounds, median.
 *
 * Environment: BENCH_MESSAGES (2000), BENCH_ROUNDS (2, delivery rounds), BENCH_HIGH_CONCURRENCY (20),
 * BENCH_CHANGES (300 per variant per round), BENCH_CHANGE_ROUNDS (7), BENCH_DATABASE_URL, BENCH_TUNED (1: the runner
 * with graphile's batched fetch and completion, `tuning` in src/jobs/runner.ts; production runs without).
 */
import { rm } from "node:fs/promises";
import { loadConfig } from "../src/config";
import { createSql, type TransactionSql } from "../src/db/client";
import { migrateDatabase } from "../src/db/migrate";
import { startEmbeddedPostgres } from "../src/db/embedded";
import { startJobRunner } from "../src/jobs/runner";
import { systemClock } from "../src/lib/clock";
import { newId } from "../src/lib/ids";
import { Logger } from "../src/lib/logger";
import type { Tenant } from "../src/lib/tenant";
import { publishCompanyChanged } from "../src/modules/changes/publish";
import { upsertCompany } from "../src/modules/customers/identify";
import { findCompanyByKeys, insertCompany } from "../src/modules/customers/repo";
import { createTeam } from "../src/modules/teams/team";
import { createEndpoint } from "../src/modules/webhooks/endpoints/manage";
import { signHeaders } from "../src/modules/webhooks/signing/sign";
import { jobHandlers } from "../src/tasks";
import { cpuSeconds, freePort, log, startServer, stopServer, treeCpuSeconds, waitReady } from "./procs";

const env = process.env;
const MESSAGES = Number(env.BENCH_MESSAGES ?? 2_000);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 2);
const HIGH = Number(env.BENCH_HIGH_CONCURRENCY ?? 20);
const CHANGES = Number(env.BENCH_CHANGES ?? 300);
const CHANGE_ROUNDS = Number(env.BENCH_CHANGE_ROUNDS ?? 7);
const EMIT_WIDTH = 8; // concurrent emitting transactions while filling the queue
const ACTOR = { kind: "operator", id: "bench", requestId: null } as const;

const print = (figure: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(figure)}\n`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const round1 = (x: number) => Math.round(x * 10) / 10;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Runs fn(0..n-1) with `width` in flight at once. */
async function inParallel(n: number, width: number, fn: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

/** CPU seconds so far of this process, PostgreSQL (all its backends) and the receiver. */
async function cpuNow(pgPid: number | null, receiverPid: number) {
  const self = process.cpuUsage();
  return {
    self: (self.user + self.system) / 1e6,
    db: pgPid ? await treeCpuSeconds(pgPid) : null,
    receiver: await cpuSeconds(receiverPid),
  };
}
type Cpu = Awaited<ReturnType<typeof cpuNow>>;
/** µs of CPU per item between two readings, per process. */
const cpuPer = (a: Cpu, b: Cpu, items: number) => {
  const us = (x: number | null, y: number | null) => (x === null || y === null ? null : Math.round(((y - x) * 1e6) / items));
  return { selfUs: us(a.self, b.self), dbUs: us(a.db, b.db), receiverUs: us(a.receiver, b.receiver) };
};

const dir = `${new URL("..", import.meta.url).pathname}.data/bench-webhooks-${Date.now()}`;
const embedded = env.BENCH_DATABASE_URL ? null : await startEmbeddedPostgres(`${dir}`, freePort(54380), () => {});
const url = env.BENCH_DATABASE_URL ?? embedded!.url;
const sql = createSql(url, { max: 10 });
const logger = new Logger("warn", (t) => process.stderr.write(t));
let receiver: Awaited<ReturnType<typeof startServer>> | null = null;

try {
  await Bun.write(`${dir}/.keep`, "");
  await migrateDatabase(sql, url);
  const config = await loadConfig({ DATA_DIR: dir, WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "true", LOG_LEVEL: "warn" });
  const pgPid = embedded ? Number((await Bun.file(`${dir}/pg/postmaster.pid`).text()).split("\n")[0]) || null : null;

  // Tenants: one per receiver path for the deliveries, three for the outbox's cost.
  const tenant = async (name: string): Promise<Tenant> => ({ teamId: (await createTeam(sql, name)).id, environment: "development" });
  const plainTenant = await tenant("Bench webhooks plain");
  const verifyTenant = await tenant("Bench webhooks verify");
  const withTenant = await tenant("Bench outbox with endpoint");
  const noneTenant = await tenant("Bench outbox no endpoint");
  const noEmitTenant = await tenant("Bench outbox no emit");
  const port = freePort(4700);
  const base = `http://127.0.0.1:${port}`;
  const deps = { sql, clock: systemClock, config };
  await createEndpoint(deps, plainTenant, ACTOR, { url: `${base}/hook` });
  const { secret } = await createEndpoint(deps, verifyTenant, ACTOR, { url: `${base}/verify` });
  await createEndpoint(deps, withTenant, ACTOR, { url: `${base}/hook` });
  receiver = startServer(
    "receiver",
    [new URL("./webhook-receiver.ts", import.meta.url).pathname, String(port)],
    { WEBHOOK_SECRET: secret },
    `${dir}/receiver.log`,
  );
  await waitReady(receiver, `${base}/health`);
  const receiverPid = receiver.proc.pid;

  let companySeq = 0;
  const createCompany = (tx: TransactionSql, t: Tenant) => {
    const n = companySeq++;
    return upsertCompany(tx, t, { id: `bench-co-${n}`, name: `Bench company ${n}`, email: `co${n}@bench.test`, traits: { plan: "pro", seats: 12 } });
  };

  // ---- 1. Deliveries/s -------------------------------------------------------------------------------
  async function deliveries(t: Tenant, concurrency: number) {
    const emitStart = performance.now();
    await inParallel(MESSAGES, EMIT_WIDTH, () => sql.begin((tx) => createCompany(tx, t)));
    const emitMs = performance.now() - emitStart;
    let done = 0;
    let failed = 0;
    let first = 0;
    let last = 0;
    const handlers = jobHandlers({
      sql,
      clock: systemClock,
      logger,
      config,
      settlement: undefined as never,
      mailer: null,
      subscriptions: undefined as never,
    });
    const attempt = handlers["webhook.attempt"];
    // The registry's handler, counted: it returns once the attempt is recorded (delivered) in the database.
    handlers["webhook.attempt"] = async (payload, job) => {
      first ||= performance.now();
      try {
        await attempt(payload, job);
        done++;
      } catch (e) {
        failed++;
        throw e;
      } finally {
        last = performance.now();
      }
    };
    const before = await cpuNow(pgPid, receiverPid);
    const runner = await startJobRunner({
      connectionString: url,
      sql,
      handlers,
      schedules: [],
      logger,
      concurrency,
      graceMs: config.jobShutdownGraceMs,
      staleMs: config.jobWorkerStaleMs,
      // BENCH_TUNED=1: graphile's batched fetch and completion (off in production, see bench/README.md).
      ...(env.BENCH_TUNED === "1" ? { tuning: { localQueueSize: 100, completeJobBatchDelayMs: 0 } } : {}),
    });
    const deadline = performance.now() + 120_000;
    while (done + failed < MESSAGES && performance.now() < deadline) await Bun.sleep(10);
    const after = await cpuNow(pgPid, receiverPid);
    await runner.stop();
    const seconds = (last - first) / 1000;
    return { delivered: done, failed, perS: done / seconds, emitTxPerS: (MESSAGES * 1000) / emitMs, cpu: cpuPer(before, after, done) };
  }

  // The receiver alone: the same body and signed headers, POSTed by plain fetch at the same concurrency.
  const [sample] = await sql<{ body: string }[]>`select body from webhook_messages limit 1`;
  async function receiverOnly(path: string, concurrency: number, body: string) {
    const headers = { ...signHeaders(newId("msg"), body, [secret], new Date()), "content-type": "application/json" };
    let ok = 0;
    const before = await cpuNow(pgPid, receiverPid);
    const start = performance.now();
    await inParallel(MESSAGES, concurrency, async () => {
      const response = await fetch(`${base}${path}`, { method: "POST", headers, body });
      await response.text();
      if (response.ok) ok++;
    });
    const seconds = (performance.now() - start) / 1000;
    const after = await cpuNow(pgPid, receiverPid);
    return { ok, perS: ok / seconds, cpu: cpuPer(before, after, ok) };
  }

  const configs = [
    { receiver: "plain", path: "/hook", tenant: plainTenant, concurrency: config.jobConcurrency },
    { receiver: "verify", path: "/verify", tenant: verifyTenant, concurrency: config.jobConcurrency },
    { receiver: "plain", path: "/hook", tenant: plainTenant, concurrency: HIGH },
    { receiver: "verify", path: "/verify", tenant: verifyTenant, concurrency: HIGH },
  ];
  const results = configs.map(() => [] as { d: Awaited<ReturnType<typeof deliveries>>; b: Awaited<ReturnType<typeof receiverOnly>> }[]);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, c] of configs.entries()) {
      log(`deliveries round ${r + 1}/${ROUNDS}: ${c.receiver}, concurrency ${c.concurrency}, ${MESSAGES} messages`);
      const b = await receiverOnly(c.path, c.concurrency, sample?.body ?? "{}");
      const d = await deliveries(c.tenant, c.concurrency);
      log(`  ${Math.round(d.perS)} deliveries/s, receiver only ${Math.round(b.perS)} POSTs/s`);
      results[i]!.push({ d, b });
    }
  }
  for (const [i, c] of configs.entries()) {
    const rs = results[i]!;
    const mid = (f: (x: (typeof rs)[number]) => number | null) => median(rs.map((x) => f(x) ?? Number.NaN));
    print({
      figure: "webhook_deliveries",
      receiver: c.receiver,
      concurrency: c.concurrency,
      messages: MESSAGES,
      rounds: ROUNDS,
      deliveriesPerS: Math.round(mid((x) => x.d.perS)),
      receiverOnlyPerS: Math.round(mid((x) => x.b.perS)),
      vsReceiverOnly: round3(mid((x) => x.d.perS / x.b.perS)),
      deliveredAll: rs.every((x) => x.d.delivered === MESSAGES && x.d.failed === 0),
      emitTxPerS: Math.round(mid((x) => x.d.emitTxPerS)),
      cpuUsPerDelivery: { runner: mid((x) => x.d.cpu.selfUs), db: mid((x) => x.d.cpu.dbUs), receiver: mid((x) => x.d.cpu.receiverUs) },
      cpuUsPerReceiverOnlyPost: { client: mid((x) => x.b.cpu.selfUs), receiver: mid((x) => x.b.cpu.receiverUs) },
      perRound: rs.map((x) => [Math.round(x.d.perS), Math.round(x.b.perS)]),
    });
  }
  const stats = await (await fetch(`${base}/stats`)).json();
  const [stored] = await sql<{ delivered: number; pending: number }[]>`
    select count(*) filter (where status = 'delivered')::int as delivered, count(*) filter (where status <> 'delivered')::int as pending
    from webhook_deliveries where team_id in ${sql([plainTenant.teamId, verifyTenant.teamId])}`;
  print({ figure: "webhook_receiver_totals", ...stats, ...stored, expected: MESSAGES * ROUNDS * configs.length });

  // ---- 2. The outbox's cost on a state change --------------------------------------------------------
  const variants: [string, Tenant, (tx: TransactionSql, t: Tenant) => Promise<unknown>][] = [
    ["with_outbox", withTenant, createCompany],
    ["no_endpoint", noneTenant, createCompany],
    [
      "no_emit",
      noEmitTenant,
      // What upsertCompany does for a company it does not find, minus emitEvent.
      async (tx, t) => {
        const n = companySeq++;
        const ref = { id: `bench-co-${n}`, email: `co${n}@bench.test` };
        if (await findCompanyByKeys(tx, t, { id: ref.id, email: ref.email })) throw new Error("company exists");
        const company = await insertCompany(tx, t, newId("comp"), {
          externalId: ref.id,
          name: `Bench company ${n}`,
          email: ref.email,
          wallet: null,
          traits: { plan: "pro", seats: 12 },
        });
        if (!company) throw new Error("insert lost");
        await publishCompanyChanged(tx, t, company.id);
      },
    ],
  ];
  const perChange: Record<string, number[]> = Object.fromEntries(variants.map(([name]) => [name, []]));
  for (let r = -1; r < CHANGE_ROUNDS; r++) {
    // Round -1 warms up; each round starts with another variant, so none always runs first.
    const order = variants.map((_, i) => variants[(i + Math.max(r, 0)) % variants.length]!);
    for (const [name, t, change] of order) {
      const start = performance.now();
      for (let i = 0; i < CHANGES; i++) await sql.begin((tx) => change(tx, t));
      const us = ((performance.now() - start) * 1000) / CHANGES;
      if (r >= 0) perChange[name]!.push(us);
    }
    if (r >= 0) log(`outbox round ${r + 1}/${CHANGE_ROUNDS}: ${variants.map(([n]) => `${n} ${Math.round(perChange[n]!.at(-1)!)} µs`).join(", ")}`);
  }
  const ratioOf = (a: string, b: string) => round3(median(perChange[a]!.map((x, i) => x / perChange[b]![i]!)));
  print({
    figure: "outbox_cost_per_state_change",
    change: "upsertCompany of a new company, one transaction each, sequential",
    changesPerRound: CHANGES,
    rounds: CHANGE_ROUNDS,
    withOutboxUs: round1(median(perChange.with_outbox!)),
    noEndpointUs: round1(median(perChange.no_endpoint!)),
    noEmitUs: round1(median(perChange.no_emit!)),
    withOutbox_vs_noEndpoint: ratioOf("with_outbox", "no_endpoint"),
    withOutbox_vs_noEmit: ratioOf("with_outbox", "no_emit"),
    noEndpoint_vs_noEmit: ratioOf("no_endpoint", "no_emit"),
    perRoundUs: Object.fromEntries(Object.entries(perChange).map(([k, v]) => [k, v.map(Math.round)])),
  });
} finally {
  if (receiver) await stopServer(receiver);
  await sql.end({ timeout: 5 });
  await embedded?.stop();
  await rm(dir, { recursive: true, force: true });
}
