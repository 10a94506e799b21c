-- Merges known facts into an existing user; same rules as company_merge. Returns one row.
-- $1 team_id, $2 environment, $3 id, $4 external_id, $5 idp_user_id, $6 name, $7 email, $8 wallet_address, $9 traits (jsonb)
update users
set external_id = coalesce(external_id, $4),
    idp_user_id = coalesce(idp_user_id, $5),
    name = coalesce($6, name),
    email = coalesce(email, $7),
    wallet_address = coalesce(wallet_address, $8),
    traits = traits || $9::jsonb,
    last_seen_at = now()
where team_id = $1 and environment = $2 and id = $3
returning id, external_id, idp_user_id, name, email, wallet_address, traits, created_at, last_seen_at, seq
