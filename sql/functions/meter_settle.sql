-- meter_settle(): one metering batch in ONE statement: one round trip and one transaction per batch,
-- instead of a statement per step. src/modules/entitlements/meter.ts queues requests and calls this; it
-- answers each request only after the call returned (committed), so an acknowledged unit is durable.
-- This file is the function's only definition: the migration runner (src/db/migrate.ts) applies it again
-- whenever its content changes. Its earlier versions and why each changed are in the git history of this
-- file and of sql/migrations/00004..00010.
--
-- Inside, in order:
--   1. stored outcomes of idempotency keys already used (retries consume nothing); a key is one company's
--   2. row locks on the usage counters and spendable credit grants the batch may spend from, each
--      taken in key order (so concurrent batches never deadlock); missing counters are created first
--   3. each request decided in arrival order against the locked values
--   4. events inserted (keyed ones in key order; a refusal only with a key, the others counted in
--      usage_refusals), counters and grants written, and the new values published on
--      `entitlement_changes` (delivered at commit, in commit order; see src/modules/changes/publish.ts)
-- Limits are exact on any number of instances because every decision is made under the row locks.
--
-- Requests are parallel arrays, one element per request. The caller names the distinct counters and
-- credit companies of the batch (c_*, k_*) and gives each request the 1-based slot of its own
-- (p_counter_slot, p_credit_slot; null when it spends from none), so nothing here searches arrays.
--
-- Returns {"r": [[outcome, eventId, companyId, userId, replayed], ...] in request order,
--          "changes": [the usage notices published]}.
--
-- Planner settings (test/db/migrations.test.ts checks them; `create or replace` keeps only the SETs it states):
--  - plan_cache_mode: statements are planned once (generic plans): their shape never depends on the values.
--  - enable_hashjoin/mergejoin/seqscan off: the statements join each batch's keys (unnested from the array
--    parameters) to usage_counters, credit_grants and events. In a generic plan PostgreSQL guesses ten rows
--    for every unnest(); against a table it believes small it then prefers a hash join over a sequential scan
--    of the whole table (on the bench, 1000 counters: two full scans per batch, ~1.3 ms of database CPU for
--    one event instead of ~0.5 ms), and the guess can flip at any ANALYZE. These lookups are always a few
--    keys found through an index, so the function is planned as nested loops over its keys, each an index
--    lookup. The settings apply inside meter_settle() only.
create or replace function meter_settle(
  p_id text[], p_team text[], p_env text[], p_source text[], p_name text[], p_company text[], p_user text[],
  p_feature text[], p_quantity bigint[], p_traits jsonb[], p_key text[],
  p_kind text[],            -- record | deny | quota | credit (see Enforcement in meter.ts)
  p_limit bigint[],         -- quota: units per period
  p_per_use bigint[],       -- credit: credits per unit
  p_counter_slot int[], p_credit_slot int[],
  c_team text[], c_env text[], c_company text[], c_feature text[], c_period timestamptz[],
  k_team text[], k_env text[], k_company text[],
  p_now timestamptz
) returns jsonb
language plpgsql
set plan_cache_mode = force_generic_plan set enable_hashjoin = off set enable_mergejoin = off set enable_seqscan = off
as $$
declare
  n int := cardinality(p_id);
  outcome text[] := array_fill(null::text, array[n]);
  event_id text[] := p_id;
  company text[] := p_company;
  user_id text[] := p_user;
  replayed boolean[] := array_fill(false, array[n]);
  burned bigint[] := array_fill(0::bigint, array[n]);
  c_used bigint[];
  c_touched boolean[] := array_fill(false, array[greatest(cardinality(c_team), 1)]);
  l_id text[]; l_slot int[]; l_initial bigint[]; l_remaining bigint[]; l_expires bigint[];
  k_first int[] := array_fill(0, array[greatest(cardinality(k_team), 1)]);
  k_last int[] := array_fill(-1, array[greatest(cardinality(k_team), 1)]);
  k_touched boolean[] := array_fill(false, array[greatest(cardinality(k_team), 1)]);
  r record;
  found_n int;
  s int; j int;
  -- numeric: a cost (per use x quantity) or a balance (the sum of a company's lots) may pass int8.
  cost numeric; balance numeric; take bigint;
  changes jsonb[] := '{}';
  any_unkeyed_refusal boolean := false;
begin
  -- 1. Retries: the first attempt's outcome, stored with its event (a key is one company's).
  if exists (select from unnest(p_key) x where x is not null) then
    for r in
      select k.i, e.id, e.outcome, e.company_id, e.user_id
      from unnest(p_team, p_env, p_source, p_key, p_company) with ordinality as k (team_id, environment, source, idempotency_key, company_id, i)
      join events e on e.team_id = k.team_id and e.environment = k.environment and e.source = k.source and e.idempotency_key = k.idempotency_key
        and coalesce(e.company_id, '') = coalesce(k.company_id, '')
    loop
      outcome[r.i] := r.outcome; event_id[r.i] := r.id; company[r.i] := r.company_id; user_id[r.i] := r.user_id; replayed[r.i] := true;
    end loop;
  end if;

  -- 2a. Counters, locked in key order; c_used[slot] is the locked value. Missing ones (a new period, a
  -- new company) are created first, before anything is locked: a batch that locked the counters it
  -- found and then waited to create another deadlocked with the batch creating that one, when the
  -- latter went on to lock what the former had found. Now a batch that creates holds no counter lock
  -- yet, and a batch that locks waits only on counters already committed, in key order: no two batches
  -- can wait for each other here. (A creation can still wait for a company or feature being deleted.)
  if cardinality(c_team) > 0 then
    select count(*) into found_n
    from unnest(c_team, c_env, c_company, c_feature, c_period) as k (team_id, environment, company_id, feature_id, period_start)
    join usage_counters u on u.team_id = k.team_id and u.environment = k.environment and u.company_id = k.company_id
      and u.feature_id = k.feature_id and u.period_start = k.period_start;
    if found_n < cardinality(c_team) then
      insert into usage_counters (team_id, environment, company_id, feature_id, period_start)
      select * from unnest(c_team, c_env, c_company, c_feature, c_period) as k order by 1, 2, 3, 4, 5
      on conflict do nothing;
    end if;
    select array_agg(l.used order by l.slot), count(*) into c_used, found_n
    from (
      select u.used, k.slot
      from unnest(c_team, c_env, c_company, c_feature, c_period) with ordinality as k (team_id, environment, company_id, feature_id, period_start, slot)
      join usage_counters u on u.team_id = k.team_id and u.environment = k.environment and u.company_id = k.company_id
        and u.feature_id = k.feature_id and u.period_start = k.period_start
      order by u.team_id, u.environment, u.company_id, u.feature_id, u.period_start
      for update of u
    ) l;
    -- c_used is indexed by slot, so every counter must be there. One can only vanish if its company or
    -- feature was deleted meanwhile: the meter retries (40001), and the retry fails that request alone.
    if found_n <> cardinality(c_team) then
      raise exception 'usage counters changed while being locked' using errcode = '40001';
    end if;
  end if;

  -- 2b. Credit grants: the spendable ones of each company, locked in burn order (soonest-expiring
  -- first, never-expiring last, then oldest); k_first/k_last[slot] bound each company's lots.
  if cardinality(k_team) > 0 then
    -- (FOR UPDATE allows no window function, so each aggregate repeats the burn order.)
    select array_agg(g.id order by g.team_id, g.environment, g.company_id, g.expires_at nulls last, g.created_at, g.id),
           array_agg(g.slot order by g.team_id, g.environment, g.company_id, g.expires_at nulls last, g.created_at, g.id),
           array_agg(g.remaining order by g.team_id, g.environment, g.company_id, g.expires_at nulls last, g.created_at, g.id),
           array_agg(floor(extract(epoch from g.expires_at) * 1000)::bigint order by g.team_id, g.environment, g.company_id, g.expires_at nulls last, g.created_at, g.id)
    into l_id, l_slot, l_initial, l_expires
    from (
      select g.id, g.team_id, g.environment, g.company_id, g.created_at, k.slot::int as slot, g.remaining, g.expires_at
      from credit_grants g
      join unnest(k_team, k_env, k_company) with ordinality as k (team_id, environment, company_id, slot)
        on g.team_id = k.team_id and g.environment = k.environment and g.company_id = k.company_id
      where g.remaining > 0 and (g.expires_at is null or g.expires_at > p_now)
      order by g.team_id, g.environment, g.company_id, g.expires_at nulls last, g.created_at, g.id
      for update of g
    ) g;
    l_remaining := l_initial;
    for j in 1 .. coalesce(cardinality(l_id), 0) loop
      s := l_slot[j];
      if k_first[s] = 0 then k_first[s] := j; end if;
      k_last[s] := j;
    end loop;
  end if;

  -- 3. Decide each request in arrival order, spending from the locked values.
  for i in 1 .. n loop
    continue when replayed[i];
    case p_kind[i]
      when 'record' then outcome[i] := 'accepted';
      when 'deny' then outcome[i] := 'feature_not_enabled';
      when 'quota' then
        s := p_counter_slot[i];
        -- Compared without adding, so that a count near int8 max cannot overflow (used may exceed a lowered limit).
        if p_quantity[i] > p_limit[i] - c_used[s] then
          outcome[i] := 'limit_reached';
        else
          c_used[s] := c_used[s] + p_quantity[i];
          c_touched[s] := true;
          outcome[i] := 'accepted';
        end if;
      when 'credit' then
        s := p_credit_slot[i];
        cost := p_per_use[i]::numeric * p_quantity[i];
        balance := 0;
        for j in k_first[s] .. k_last[s] loop balance := balance + l_remaining[j]; end loop;
        -- One use burns at most int8 max credits (the events column); more is refused, as in decide().
        if balance < cost or cost > 9223372036854775807 then
          outcome[i] := 'insufficient_credits';
        else
          burned[i] := cost;
          for j in k_first[s] .. k_last[s] loop
            exit when cost = 0;
            take := least(l_remaining[j], cost);
            l_remaining[j] := l_remaining[j] - take;
            cost := cost - take;
          end loop;
          k_touched[s] := true;
          outcome[i] := 'accepted';
        end if;
    end case;
    any_unkeyed_refusal := any_unkeyed_refusal or (outcome[i] <> 'accepted' and p_key[i] is null);
  end loop;

  -- 4. Write: events (not the replays), spent counters and grants. Events with an idempotency key go
  -- first, in key order, the rest in arrival order: two batches (on two instances) carrying the same
  -- keys in opposite orders deadlocked on the keys' unique index; now the second waits for the first
  -- and finds the key taken (23505: the meter retries the batch, and the retry replays).
  insert into events (id, team_id, environment, source, event_type, name, company_id, user_id, feature_id,
                      quantity, credits_burned, outcome, traits, idempotency_key, sent_at)
  select v.id, v.team_id, v.environment, v.source, 'track', v.name, v.company_id, v.user_id, v.feature_id,
         v.quantity, v.burned, v.outcome, v.traits, v.idempotency_key, p_now
  from unnest(p_id, p_team, p_env, p_source, p_name, p_company, p_user, p_feature, p_quantity, burned, outcome, p_traits, p_key, replayed)
    with ordinality as v (id, team_id, environment, source, name, company_id, user_id, feature_id, quantity, burned, outcome, traits, idempotency_key, replayed, i)
  where not v.replayed and (v.outcome = 'accepted' or v.idempotency_key is not null)
  order by v.idempotency_key is null, v.team_id, v.environment, v.source, v.idempotency_key, coalesce(v.company_id, ''), v.i;

  -- A refusal without an idempotency key is counted, not stored: no retry will ask for it, and a caller
  -- hammering a limit must not grow storage without bound. Written in key order, so that two batches
  -- counting the same refusals never wait for each other's rows in opposite orders.
  if any_unkeyed_refusal then
    insert into usage_refusals as u (team_id, environment, day, source, company_id, feature_id, outcome, count)
    select v.team_id, v.environment, (p_now at time zone 'UTC')::date, v.source, v.company_id, v.feature_id, v.outcome, count(*)
    from unnest(p_team, p_env, p_source, p_company, p_feature, outcome, p_key, replayed)
      as v (team_id, environment, source, company_id, feature_id, outcome, idempotency_key, replayed)
    where v.outcome <> 'accepted' and v.idempotency_key is null and not v.replayed
    group by 1, 2, 3, 4, 5, 6, 7
    order by 1, 2, 3, 4, 5, 6, 7
    on conflict on constraint usage_refusals_key do update set count = u.count + excluded.count;
  end if;

  if cardinality(c_team) > 0 then
    update usage_counters u set used = v.used, updated_at = now()
    from unnest(c_team, c_env, c_company, c_feature, c_period, c_used, c_touched)
      as v (team_id, environment, company_id, feature_id, period_start, used, touched)
    where v.touched and u.team_id = v.team_id and u.environment = v.environment and u.company_id = v.company_id
      and u.feature_id = v.feature_id and u.period_start = v.period_start;
  end if;

  if cardinality(l_id) > 0 then
    update credit_grants g set remaining = v.remaining
    from unnest(l_id, l_initial, l_remaining) as v (id, initial, remaining)
    where v.remaining <> v.initial and g.id = v.id;
  end if;

  -- 5. Publish the new values, per tenant, in notices under 7000 bytes (PostgreSQL refuses 8000).
  -- Built by one aggregate: appending to a jsonb value rewrites it, so a loop of appends cost the
  -- square of the batch. Each item's size is its text plus the ", " that separates it from the next.
  -- An item of at most 3400 bytes goes in the notice of the 3400-byte stretch of its tenant's running
  -- size where it starts, so a notice holds less than 6800 bytes of items; a larger one (a balance
  -- with many lots) goes in a notice of its own; one over 6800 bytes fits no notice, and the company
  -- is announced as changed instead, so every instance reloads it from the database.
  with items as (
    select v.team_id, v.environment, 1 as sort, v.slot,
           jsonb_build_array(v.company_id, v.feature_id, (extract(epoch from v.period_start) * 1000)::bigint, v.used::text) as item
    from unnest(c_team, c_env, c_company, c_feature, c_period, c_used, c_touched) with ordinality
      as v (team_id, environment, company_id, feature_id, period_start, used, touched, slot)
    where v.touched
    union all
    select v.team_id, v.environment, 2, v.slot,
           jsonb_build_array(v.company_id, coalesce((
             select jsonb_agg(jsonb_build_array(l_remaining[lot]::text, l_expires[lot]) order by lot)
             from generate_series(k_first[v.slot::int], k_last[v.slot::int]) lot where l_remaining[lot] > 0), '[]'))
    from unnest(k_team, k_env, k_company, k_touched) with ordinality as v (team_id, environment, company_id, touched, slot)
    where v.touched
  ), sized as (
    select i.*, octet_length(i.item::text) + 2 as bytes from items i
  ), placed as (
    select s.*,
           case when s.bytes <= 3400
             then floor((sum(s.bytes) filter (where s.bytes <= 3400) over w - s.bytes) / 3400)::bigint
             else -(row_number() over w) end as notice_no
    from sized s
    where s.bytes <= 6800
    window w as (partition by s.team_id, s.environment order by s.sort, s.slot)
  ), notices as (
    select p.team_id, p.environment, p.notice_no,
           jsonb_build_object('k', 'usage', 't', p.team_id, 'e', p.environment,
             'counters', coalesce(jsonb_agg(p.item order by p.slot) filter (where p.sort = 1), '[]'),
             'balances', coalesce(jsonb_agg(p.item order by p.slot) filter (where p.sort = 2), '[]')) as notice
    from placed p
    group by p.team_id, p.environment, p.notice_no
    union all
    select s.team_id, s.environment, null, jsonb_build_object('k', 'company', 't', s.team_id, 'e', s.environment, 'c', s.item->>0)
    from sized s
    where s.bytes > 6800
  )
  select coalesce(array_agg(x.notice order by x.team_id, x.environment, x.notice_no nulls first), '{}') into changes from notices x;
  perform pg_notify('entitlement_changes', x::text) from unnest(changes) x;

  return jsonb_build_object(
    'r', (select jsonb_agg(jsonb_build_array(outcome[i], event_id[i], company[i], user_id[i], replayed[i]) order by i) from generate_series(1, n) i),
    'changes', to_jsonb(changes));
end
$$;
