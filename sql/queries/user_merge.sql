-- Merges known facts into an existing user; same rules as company_merge (missing keys are filled only
-- when no other user of the tenant holds them). Returns one row.
-- $1 team_id, $2 environment, $3 id, $4 external_id, $5 idp_user_id, $6 name, $7 email, $8 wallet_address, $9 traits (jsonb)
update users u
set external_id = coalesce(u.external_id, case when not exists (
      select 1 from users o where o.team_id = $1 and o.environment = $2 and o.external_id = $4) then $4 end),
    idp_user_id = coalesce(u.idp_user_id, case when not exists (
      select 1 from users o where o.team_id = $1 and o.environment = $2 and o.idp_user_id = $5) then $5 end),
    name = coalesce($6, u.name),
    email = coalesce(u.email, case when not exists (
      select 1 from users o where o.team_id = $1 and o.environment = $2 and lower(o.email) = lower($7)) then $7 end),
    wallet_address = coalesce(u.wallet_address, case when not exists (
      select 1 from users o where o.team_id = $1 and o.environment = $2 and lower(o.wallet_address) = lower($8)) then $8 end),
    traits = u.traits || $9::jsonb,
    last_seen_at = now()
where u.team_id = $1 and u.environment = $2 and u.id = $3
returning id, external_id, idp_user_id, name, email, wallet_address, traits, created_at, last_seen_at, seq
