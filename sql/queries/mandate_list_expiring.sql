-- ACTIVE mandates whose expires_at has passed at $1, across tenants (the expiry job). Returns many rows.
-- $1 now, $2 limit
select id, team_id, environment from mandates where status = 'ACTIVE' and expires_at <= $1 order by expires_at limit $2
