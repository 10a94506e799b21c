-- An operator's active memberships, with each team's name, oldest first (the team switch's list). Returns many rows.
-- Spans teams: an operator's memberships are what is being listed.
-- $1 operator_id
select m.id, m.team_id, t.name as team_name, m.roles, m.created_at
from team_members m
join teams t on t.id = m.team_id
where m.operator_id = $1 and m.status = 'active'
order by m.created_at, m.id
