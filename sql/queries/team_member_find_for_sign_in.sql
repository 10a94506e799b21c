-- An operator's active membership to sign in to: the given team's, or with no team given the oldest.
-- Spans teams: an operator's memberships are what is being looked up. Returns one row or none.
-- $1 operator_id, $2 team_id (null: any)
select m.id, m.team_id, m.roles, t.name as team_name
from team_members m
join teams t on t.id = m.team_id
where m.operator_id = $1 and m.status = 'active' and ($2::text is null or m.team_id = $2)
order by m.created_at, m.id
limit 1
