-- Unlocks the jobs (and job queues) locked more than $1 ms ago by workers with no heartbeat within $1 ms:
-- their process died without returning them (kill -9, lost machine). graphile-worker's
-- force_unlock_workers makes them available at once (the attempt that died stays counted in attempts).
-- `unlocked` is read below only so that it runs. Forgets heartbeat rows stale for 100 x $1.
-- Not tenant-filtered: queue machinery. Returns one row: the worker ids unlocked.
-- $1 staleness in milliseconds
with dead as (
  select locked_by from graphile_worker._private_jobs
  where locked_by is not null and locked_at < now() - $1::int * interval '1 millisecond'
  union
  select locked_by from graphile_worker._private_job_queues
  where locked_by is not null and locked_at < now() - $1::int * interval '1 millisecond'
),
stale as (
  select locked_by as worker_id from dead
  where not exists (
    select 1 from job_worker_heartbeats h
    where h.worker_id = dead.locked_by and h.seen_at >= now() - $1::int * interval '1 millisecond'
  )
),
unlocked as (
  select graphile_worker.force_unlock_workers(array(select worker_id from stale))
),
forgotten as (
  delete from job_worker_heartbeats where seen_at < now() - $1::int * interval '100 millisecond'
)
select array(select worker_id from stale order by 1) as worker_ids, (select count(*) from unlocked) as calls
