-- Subscriptions whose renewal or dunning retry is due at $1, across tenants (the renewal job's scan), oldest
-- first, one page after the previous page's last row ($2, $3; the first page starts at the epoch and ''). The
-- index's range starts at the cursor, so a page costs the same however many pages came before. Returns many rows.
-- $1 now, $2 after next_attempt_at, $3 after id, $4 limit
select id, team_id, environment, network, next_attempt_at from subscriptions
where status in ('TRIALING', 'ACTIVE', 'PAST_DUE') and next_attempt_at <= $1
  and next_attempt_at >= $2 and (next_attempt_at, id) > ($2::timestamptz, $3::text)
order by next_attempt_at, id
limit $4
