-- Marks a quote used by the change that charges it; none when it was used already. Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 now
update plan_change_quotes set used_at = $4
where team_id = $1 and environment = $2 and id = $3 and used_at is null
returning id
