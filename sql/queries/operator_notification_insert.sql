-- Tells the operator something (shown by the dashboard). Returns none.
-- $1 id, $2 team_id, $3 environment, $4 kind, $5 resource_type, $6 resource_id, $7 message, $8 details (jsonb), $9 now
insert into operator_notifications (id, team_id, environment, kind, resource_type, resource_id, message, details, created_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
