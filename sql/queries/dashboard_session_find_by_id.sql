-- A live session with its operator, team and member's roles, for GET /dashboard/session. Returns one row or none.
-- $1 team_id, $2 environment, $3 id
select s.id, s.environment, s.expires_at, s.member_id, m.roles, s.team_id, t.name as team_name,
       o.id as operator_id, o.email, o.name
from dashboard_sessions s
join team_members m on m.id = s.member_id and m.team_id = s.team_id
join operators o on o.id = s.operator_id
join teams t on t.id = s.team_id
where s.team_id = $1 and s.environment = $2 and s.id = $3
