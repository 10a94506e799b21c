-- Adds a job to the queue (graphile-worker), in the caller's transaction when it runs in one: the job
-- commits or rolls back with the change it follows. A job_key replaces the pending job that has it.
-- Not tenant-filtered: the queue spans every tenant, a job's payload names its own. Returns one row.
-- A queue name runs that queue's jobs one at a time, in order.
-- $1 task name, $2 payload (json), $3 run at (null: now), $4 max attempts (null: 25), $5 job key (null: none),
-- $6 queue name (null: none)
select (graphile_worker.add_job(
  $1::text,
  payload => $2::json,
  run_at => $3::timestamptz,
  max_attempts => $4::int,
  job_key => $5::text,
  queue_name => $6::text
)).id::text as id
