-- Liveness of the job queue's workers (src/jobs/heartbeat.ts). graphile-worker records in a job's
-- locked_by which worker took it, but not whether that worker still lives: a job taken by a process
-- killed with -9 stays locked for 4 hours. Each runner writes a row per graphile worker id it owns (a
-- worker id, or its pool's id when the pool locks jobs for its workers) every few seconds; the recovery
-- task (src/jobs/recovery.ts) unlocks jobs held by ids whose row went stale, so another runner takes them.
create table job_worker_heartbeats (
  worker_id  text primary key, -- as graphile-worker writes it in locked_by
  runner_id  text not null,    -- the runner (one per process) that owns the worker
  started_at timestamptz not null default now(),
  seen_at    timestamptz not null default now()
);
create index job_worker_heartbeats_runner on job_worker_heartbeats (runner_id);
