-- Sets a plan's on-chain ids, one per network (the caller removed the previous ones first). Returns none.
-- $1 team_id, $2 environment, $3 plan_id, $4 networks (text[]), $5 on-chain plan ids (text[], same order)
insert into plan_onchain_ids (team_id, environment, plan_id, network, onchain_plan_id)
select $1, $2, $3, n, o
from unnest($4::text[], $5::text[]) as v (n, o)
