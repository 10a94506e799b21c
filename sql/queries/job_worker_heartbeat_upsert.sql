-- Records that a runner's graphile workers are alive (database time, the clock locked_at uses).
-- Not tenant-filtered: queue machinery. Returns none.
-- $1 worker ids (text[]), $2 runner id
insert into job_worker_heartbeats (worker_id, runner_id)
select worker_id, $2::text from unnest($1::text[]) as ids (worker_id)
on conflict (worker_id) do update set seen_at = now(), runner_id = excluded.runner_id
