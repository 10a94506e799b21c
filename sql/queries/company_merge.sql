-- Merges what an event or token request knows into an existing company: traits merged key by key
-- (new values win), keys the company lacks are filled in, a new name replaces the old. Keys already
-- set are never overwritten here: that would silently move a customer's identity. Returns one row.
-- $1 team_id, $2 environment, $3 id, $4 external_id, $5 name, $6 email, $7 wallet_address, $8 traits (jsonb)
update companies
set external_id = coalesce(external_id, $4),
    name = coalesce($5, name),
    email = coalesce(email, $6),
    wallet_address = coalesce(wallet_address, $7),
    traits = traits || $8::jsonb,
    last_seen_at = now()
where team_id = $1 and environment = $2 and id = $3
returning id, external_id, name, email, wallet_address, logo_url, traits, active_plan_id, active_add_on_ids, created_at, last_seen_at, seq
