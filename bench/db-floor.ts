/**
 * What the database alone spends per metered event, against the floor of a plain batched INSERT into
 * the same `events` table (its primary key and three indexes). No HTTP, no meter: each client loops on
 * one SQL call that builds a batch of `BENCH_BATCH` events for consecutive companies and writes it.
 *
 *   bun bench/db-floor.ts     BENCH_BATCH (32), BENCH_CLIENTS (2), BENCH_DURATION_S (8),
 *                             BENCH_WARMUP_S (2), BENCH_COMPANIES (1000)
 *
 * Event ids are time-ordered, as the service's are, and each scenario starts from an empty `events`.
 * Scenarios, one JSON line each: `insert` (INSERT … SELECT of the batch), `settle_record`
 * (meter_settle() of events that enforce nothing), `settle_quota` (meter_settle() of quota-metered
 * events: counters locked, decided, updated and published, as the service's `api-calls` track).
 * `dbCpuUsPerRow` is PostgreSQL's CPU (every process of the cluster) per event written.
 */
import { rm } from "node:fs/promises";
import { createSql, type Sql } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { startEmbeddedPostgres } from "../src/db/embedded";
import { seedBench } from "./seed";
import { freePort, log, treeCpuSeconds } from "./procs";

const env = process.env;
const batch = Number(env.BENCH_BATCH ?? 32);
const clients = Number(env.BENCH_CLIENTS ?? 2);
const durationS = Number(env.BENCH_DURATION_S ?? 8);
const warmupS = Number(env.BENCH_WARMUP_S ?? 2);
const companyCount = Number(env.BENCH_COMPANIES ?? 1000);

// Helpers in their own schema of this throwaway database. A batch takes `n` consecutive companies from
// a random offset, so two clients overlap on a counter now and then, as real batches do.
const HELPERS = (companies: number) => `
create schema bench;
create table bench.companies as select row_number() over (order by id)::int as i, id from companies;
create index on bench.companies (i);
create function bench.event_id() returns text language sql as $$
  select 'evt_' || lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0') || substr(md5(random()::text), 1, 12)
$$;
create function bench.pick(n int) returns text[] language sql as $$
  with start as (select floor(random() * (greatest(${companies} - n, 0) + 1))::int as o)
  select array_agg(id order by i) from bench.companies, start where i > start.o and i <= start.o + n
$$;
create function bench.insert(n int) returns void language sql as $$
  insert into events (id, team_id, environment, source, event_type, name, company_id, feature_id, quantity, outcome, sent_at)
  select bench.event_id(), f.team_id, 'development', 'events', 'track', 'api-calls', c, f.id, 1, 'accepted', now()
  from unnest(bench.pick(n)) c, (select id, team_id from features where feature_key = 'api-calls') f
$$;
create function bench.settle(n int, kind text) returns jsonb language plpgsql as $$
declare
  fid text; tid text;
  comps text[];
  quota boolean := kind = 'quota';
begin
  select id, team_id into fid, tid from features where feature_key = 'api-calls';
  comps := bench.pick(n);
  n := cardinality(comps);
  return meter_settle(
    array(select bench.event_id() from generate_series(1, n)),
    array_fill(tid, array[n]), array_fill('development'::text, array[n]), array_fill('events'::text, array[n]),
    array_fill('api-calls'::text, array[n]), comps, array_fill(null::text, array[n]), array_fill(fid, array[n]),
    array_fill(1::bigint, array[n]), array_fill('{}'::jsonb, array[n]), array_fill(null::text, array[n]),
    array_fill(kind, array[n]), array_fill(1000000000000::bigint, array[n]), array_fill(null::bigint, array[n]),
    case when quota then array(select generate_series(1, n)) else array_fill(null::int, array[n]) end, array_fill(null::int, array[n]),
    case when quota then array_fill(tid, array[n]) else '{}' end, case when quota then array_fill('development'::text, array[n]) else '{}' end,
    case when quota then comps else '{}' end, case when quota then array_fill(fid, array[n]) else '{}' end,
    case when quota then array_fill(date_trunc('month', now()), array[n]) else '{}' end,
    '{}', '{}', '{}', now());
end $$;
`;

const SCENARIOS: Record<string, (sql: Sql) => Promise<unknown>> = {
  insert: (sql) => sql`select bench.insert(${batch})`,
  settle_record: (sql) => sql`select bench.settle(${batch}, 'record')`,
  settle_quota: (sql) => sql`select bench.settle(${batch}, 'quota')`,
};

const dir = `${new URL("..", import.meta.url).pathname}.data/bench-floor-${Date.now()}`;
const db = await startEmbeddedPostgres(dir, freePort(54370), () => {});
const sql = createSql(db.url, { max: clients });
try {
  await migrate(sql);
  await seedBench(sql, companyCount);
  await sql.unsafe(HELPERS(companyCount));
  const pgPid = Number((await Bun.file(`${dir}/pg/postmaster.pid`).text()).split("\n")[0]);

  for (const [scenario, call] of Object.entries(SCENARIOS)) {
    await sql`truncate events`; // each scenario starts from the same empty table
    await sql`checkpoint`;
    log(`db floor: ${scenario}, batches of ${batch}, ${clients} clients, ${warmupS} s warmup + ${durationS} s`);
    let batches = 0;
    let retries = 0;
    let stop = false;
    const client = async () => {
      while (!stop) {
        try {
          await call(sql);
          batches++;
        } catch (error) {
          // Retried as the meter retries them (a counter whose company was deleted meanwhile: 40001).
          if (!["40P01", "40001"].includes((error as { code?: string }).code ?? "")) throw error;
          retries++;
        }
      }
    };
    const running = Array.from({ length: clients }, client);
    await Bun.sleep(warmupS * 1000);
    const [n0, db0, t0] = [batches, await treeCpuSeconds(pgPid), performance.now()];
    await Bun.sleep(durationS * 1000);
    const [n1, db1, t1] = [batches, await treeCpuSeconds(pgPid), performance.now()];
    stop = true;
    await Promise.all(running);
    const seconds = (t1 - t0) / 1000;
    const rows = (n1 - n0) * batch;
    const dbSeconds = db0 === null || db1 === null ? null : db1 - db0;
    console.log(
      JSON.stringify({
        scenario,
        batch,
        clients,
        durationS,
        retries,
        rowsPerS: Math.round(rows / seconds),
        dbCpuCores: dbSeconds === null ? null : Math.round((dbSeconds / seconds) * 100) / 100,
        dbCpuUsPerRow: dbSeconds === null ? null : Math.round((dbSeconds / rows) * 1e7) / 10,
      }),
    );
  }
} finally {
  await sql.end({ timeout: 5 });
  await db.stop();
  await rm(dir, { recursive: true, force: true });
}
