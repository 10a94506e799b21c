-- Creates a user unless one of its unique keys is already taken. Returns one row or none.
-- $1 id, $2 team_id, $3 environment, $4 external_id, $5 idp_user_id, $6 name, $7 email, $8 wallet_address, $9 traits (jsonb)
insert into users (id, team_id, environment, external_id, idp_user_id, name, email, wallet_address, traits)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
on conflict do nothing
returning id, external_id, idp_user_id, name, email, wallet_address, traits, created_at, last_seen_at, seq
