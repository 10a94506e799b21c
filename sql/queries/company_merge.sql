-- Merges what an event or token request knows into an existing company: traits merged key by key
-- (new values win), a new name replaces the old, and keys the company lacks are filled in, but only
-- when no other company of the tenant holds that key already (so a call naming two different
-- companies by two keys updates the first match and never fails on a unique index). Keys already set
-- are never overwritten here: that would silently move a customer's identity. Returns one row.
-- $1 team_id, $2 environment, $3 id, $4 external_id, $5 name, $6 email, $7 wallet_address, $8 traits (jsonb)
update companies c
set external_id = coalesce(c.external_id, case when not exists (
      select 1 from companies o where o.team_id = $1 and o.environment = $2 and o.external_id = $4) then $4 end),
    name = coalesce($5, c.name),
    email = coalesce(c.email, case when not exists (
      select 1 from companies o where o.team_id = $1 and o.environment = $2 and lower(o.email) = lower($6)) then $6 end),
    wallet_address = coalesce(c.wallet_address, case when not exists (
      select 1 from companies o where o.team_id = $1 and o.environment = $2 and lower(o.wallet_address) = lower($7)) then $7 end),
    traits = c.traits || $8::jsonb,
    last_seen_at = now()
where c.team_id = $1 and c.environment = $2 and c.id = $3
returning id, external_id, name, email, wallet_address, logo_url, traits, active_plan_id, active_add_on_ids, created_at, last_seen_at, seq
