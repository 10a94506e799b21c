-- The active members of a team with their operator's email and name, oldest first. Returns many rows.
-- $1 team_id
select m.id, m.operator_id, o.email, o.name, m.roles, m.status, m.created_at
from team_members m
join operators o on o.id = m.operator_id
where m.team_id = $1 and m.status = 'active'
order by m.created_at, m.id
