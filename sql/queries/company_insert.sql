-- Creates a company unless one of its unique keys is already taken (a concurrent upsert won: the
-- caller then reads that row). Returns one row or none.
-- $1 id, $2 team_id, $3 environment, $4 external_id, $5 name, $6 email, $7 wallet_address, $8 traits (jsonb)
insert into companies (id, team_id, environment, external_id, name, email, wallet_address, traits)
values ($1, $2, $3, $4, $5, $6, $7, $8)
on conflict do nothing
returning id, external_id, name, email, wallet_address, logo_url, traits, active_plan_id, active_add_on_ids, created_at, last_seen_at, seq
