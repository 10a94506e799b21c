-- Claims attempt n of a delivery for this worker: a new row, or an in-flight one whose claim lapsed (its
-- worker died mid-request). Returns one row: the claim that holds it and whether it is finished (the claim
-- is the caller's only if it won).
-- $1 delivery_id, $2 attempt, $3 team_id, $4 environment, $5 claim token, $6 now, $7 lease (ms)
insert into webhook_attempts as a (delivery_id, attempt, team_id, environment, claim, claimed_at)
values ($1, $2, $3, $4, $5, $6)
on conflict (delivery_id, attempt) do update
set claim = case when a.finished_at is null and a.claimed_at < $6::timestamptz - make_interval(secs => $7::int / 1000.0)
                 then excluded.claim else a.claim end,
    claimed_at = case when a.finished_at is null and a.claimed_at < $6::timestamptz - make_interval(secs => $7::int / 1000.0)
                 then excluded.claimed_at else a.claimed_at end
where a.team_id = $3 and a.environment = $4
returning claim, finished_at is not null as finished
