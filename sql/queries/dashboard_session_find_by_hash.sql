-- Resolves a dashboard session by the SHA-256 of its value, with its member's current roles and status
-- (a role change or a removal applies to the next request). A session without a member (made before
-- migration 00014) is not found. Returns one row or none.
-- $1 token_hash
select s.id, s.team_id, s.environment, s.expires_at, s.revoked_at, s.operator_id, s.member_id,
       m.roles, m.status as member_status, o.email, o.name
from dashboard_sessions s
join team_members m on m.id = s.member_id and m.team_id = s.team_id
join operators o on o.id = s.operator_id
where s.token_hash = $1
