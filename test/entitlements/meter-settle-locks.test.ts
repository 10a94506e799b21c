/**
 * meter_settle() next to other batches creating the same counters or writing the same idempotency
 * keys: no deadlock. Called directly, without the meter's retry, which would hide a deadlock behind
 * PostgreSQL's deadlock_timeout (a second late).
 */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createCatalogFixture } from "../helpers/catalog";

const t = await createTestApp();
const team = await createTeamFixture(t);
const catalog = await createCatalogFixture(t, team.teamId);
const sql = t.db.sql;

// One quota use per company, in one call of meter_settle(), as the meter sends a batch.
await sql.unsafe(`
  create function test_settle(p_team text, p_feature text, p_companies text[], p_period timestamptz, p_keys text[] default null) returns jsonb
  language sql as $$
    select meter_settle(
      array(select 'evt_lock_' || gen_random_uuid() from unnest(p_companies)),
      array_fill(p_team, array[cardinality(p_companies)]), array_fill('development'::text, array[cardinality(p_companies)]),
      array_fill('consume'::text, array[cardinality(p_companies)]), array_fill('api-calls'::text, array[cardinality(p_companies)]),
      p_companies, array_fill(null::text, array[cardinality(p_companies)]), array_fill(p_feature, array[cardinality(p_companies)]),
      array_fill(1::bigint, array[cardinality(p_companies)]), array_fill('{}'::jsonb, array[cardinality(p_companies)]),
      coalesce(p_keys, array_fill(null::text, array[cardinality(p_companies)])), array_fill('quota'::text, array[cardinality(p_companies)]),
      array_fill(100::bigint, array[cardinality(p_companies)]), array_fill(null::bigint, array[cardinality(p_companies)]),
      array(select generate_series(1, cardinality(p_companies))), array_fill(null::int, array[cardinality(p_companies)]),
      array_fill(p_team, array[cardinality(p_companies)]), array_fill('development'::text, array[cardinality(p_companies)]),
      p_companies, array_fill(p_feature, array[cardinality(p_companies)]), array_fill(p_period, array[cardinality(p_companies)]),
      '{}', '{}', '{}', now())
  $$;
  -- Holds a batch between creating its counters and locking them, when the batch asks for it.
  create function test_pause() returns trigger language plpgsql as $$
  begin
    if current_setting('test.pause_after_counter_insert', true) = 'on' then perform pg_sleep(0.3); end if;
    return null;
  end $$;
  create trigger test_pause after insert on usage_counters for each statement execute function test_pause();
  -- Slows each event written, when the batch asks for it, so that two batches' inserts interleave.
  create function test_slow_event() returns trigger language plpgsql as $$
  begin
    if current_setting('test.slow_events', true) = 'on' then perform pg_sleep(0.2); end if;
    return new;
  end $$;
  create trigger test_slow_event before insert on events for each row execute function test_slow_event();
`);

const [first, second] = (
  await sql<{ id: string }[]>`
  insert into companies (id, team_id, environment, name)
  values ('comp_lock_1', ${team.teamId}, 'development', 'first'), ('comp_lock_2', ${team.teamId}, 'development', 'second')
  returning id`
).map((r) => r.id) as [string, string];
const period = new Date(Date.UTC(2026, 5, 1));
const used = async () =>
  (
    await sql<{ company_id: string; used: bigint }[]>`
    select company_id, used from usage_counters where feature_id = ${catalog.features.apiCalls} and period_start = ${period} order by company_id`
  ).map((r) => [r.company_id, r.used]);

/** Polls until the backend is in the given wait (`wait_event_type` or `wait_event`). */
async function waitUntil(pid: () => number, wait: string) {
  for (let i = 0; i < 1000; i++) {
    const [row] = await sql`select 1 from pg_stat_activity where pid = ${pid()} and ${wait} in (wait_event_type, wait_event)`;
    if (row) return;
    await Bun.sleep(5);
  }
  throw new Error(`backend ${pid()} never reached ${wait}`);
}

test("a batch that finds one of its counters created meanwhile does not deadlock with the batch creating the other", async () => {
  // The interleaving that deadlocked: batch B looks for both counters and finds neither, because the
  // first is being created by someone else; that commits; B creates the second and pauses before
  // locking. Batch A now finds the first. Before migration 00009, A locked it at once, then waited to
  // create B's second, while B waited to lock A's first: one of the two failed with 40P01.
  const creator = await sql.reserve();
  await creator`begin`;
  await creator`insert into usage_counters (team_id, environment, company_id, feature_id, period_start) values (${team.teamId}, 'development', ${first}, ${catalog.features.apiCalls}, ${period})`;
  let pidB = 0;
  const batchB = sql.begin(async (tx) => {
    const [row] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid, set_config('test.pause_after_counter_insert', 'on', true)`;
    pidB = row!.pid;
    return tx`select test_settle(${team.teamId}, ${catalog.features.apiCalls}, ${[first, second]}, ${period}) as settled`;
  });
  await waitUntil(() => pidB, "Lock"); // B has looked and waits for the creator's first counter
  await creator`commit`;
  creator.release();
  await waitUntil(() => pidB, "PgSleep"); // B has created the second counter and is paused
  const batchA = sql`select test_settle(${team.teamId}, ${catalog.features.apiCalls}, ${[first, second]}, ${period}) as settled`;
  const [a, b] = await Promise.all([batchA, batchB]);
  const outcomes = (rows: { settled: { r: [string][] } }[]) => rows[0]!.settled.r.map(([outcome]) => outcome);
  expect(outcomes(a as never)).toEqual(["accepted", "accepted"]);
  expect(outcomes(b as never)).toEqual(["accepted", "accepted"]);
  expect(await used()).toEqual([
    [first, 2n],
    [second, 2n],
  ]);
});

test("two batches with the same idempotency keys in opposite orders do not deadlock: the second finds them taken", async () => {
  // Before migration 00009 each wrote its first key, then waited for the other's: 40P01. Now both write
  // in key order, so one waits for the other and gets 23505, which the meter retries as a replay.
  const batch = (company: string, keys: string[]) =>
    sql.begin(async (tx) => {
      await tx`select set_config('test.slow_events', 'on', true)`;
      return tx`select test_settle(${team.teamId}, ${catalog.features.apiCalls}, ${[company, company]}, ${period}, ${keys}) as settled`;
    });
  // (Keys are one company's since migration 00010: both batches are the same company's.)
  const results = await Promise.allSettled([batch(first, ["order-k1", "order-k2"]), batch(first, ["order-k2", "order-k1"])]);
  expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  const [refused] = results.filter((r) => r.status === "rejected");
  expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: "23505" });
  const [stored] = await sql<{ n: number }[]>`select count(*)::int as n from events where idempotency_key in ('order-k1', 'order-k2')`;
  expect(stored!.n).toBe(2);
});
