-- Records one mutating call, in the same transaction as the change it describes. Returns none.
-- $1 id, $2 team_id, $3 environment, $4 actor_kind, $5 actor_id, $6 action, $7 resource_type,
-- $8 resource_id, $9 request_id, $10 details (jsonb)
insert into audit_log (id, team_id, environment, actor_kind, actor_id, action, resource_type, resource_id, request_id, details)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
