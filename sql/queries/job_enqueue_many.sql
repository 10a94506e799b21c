-- Adds many jobs of one task in one statement (graphile-worker's add_jobs), in the caller's transaction when it
-- runs in one. A job_key replaces the pending job that has it, as job_enqueue.sql does; a queue name makes the
-- jobs of that queue run one at a time. Not tenant-filtered: the queue spans every tenant, each job's payload
-- names its own. Returns one row.
-- $1 task name, $2 payloads (a JSON array, as text), $3 job keys (text[] in the same order, '' for none),
-- $4 max attempts (null: 25), $5 queue names (text[] in the same order, '' for none)
select count(*)::int as queued from graphile_worker.add_jobs(array(
  select row($1::text, p.payload, nullif(q.queue_name, ''), null, $4::smallint, nullif(k.job_key, ''), null, null)::graphile_worker.job_spec
  from json_array_elements($2::text::json) with ordinality as p(payload, n)
  join unnest($3::text[]) with ordinality as k(job_key, n) using (n)
  join unnest($5::text[]) with ordinality as q(queue_name, n) using (n)
))
