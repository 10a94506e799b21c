-- Removes a plan's on-chain ids on the given networks. Returns none.
-- $1 team_id, $2 environment, $3 plan_id, $4 networks (text[])
delete from plan_onchain_ids
where team_id = $1 and environment = $2 and plan_id = $3 and network = any($4::text[])
