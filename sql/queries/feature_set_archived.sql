-- Archives (a time) or restores (null) a feature. Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 archived_at
update features set archived_at = $4
where team_id = $1 and environment = $2 and id = $3
returning id
