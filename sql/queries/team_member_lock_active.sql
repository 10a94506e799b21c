-- Locks every active member of a team, so role changes and removals that could leave it without an
-- owner run one at a time. Returns many rows.
-- $1 team_id
select m.id, m.operator_id, o.email, o.name, m.roles, m.status, m.created_at
from team_members m
join operators o on o.id = m.operator_id
where m.team_id = $1 and m.status = 'active'
order by m.id
for update of m
