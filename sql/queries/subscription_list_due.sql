-- Subscriptions whose renewal or dunning retry is due at $1, across tenants (the renewal job's scan), oldest
-- first. Returns many rows.
-- $1 now, $2 limit
select id, team_id, environment, network, next_attempt_at from subscriptions
where status in ('TRIALING', 'ACTIVE', 'PAST_DUE') and next_attempt_at <= $1
order by next_attempt_at
limit $2
