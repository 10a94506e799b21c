-- Forgets a runner's workers after it stopped cleanly (its jobs were finished or returned).
-- Not tenant-filtered: queue machinery. Returns none.
-- $1 runner id
delete from job_worker_heartbeats where runner_id = $1::text
