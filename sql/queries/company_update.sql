-- Applies PATCH /companies/{id} to a locked company. Traits merge key by key and a key whose new value
-- is JSON null is removed. The billing anchor is set only when it is still null and $8 is given
-- (the company is getting a plan): it never moves once set. Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 name, $5 traits patch (jsonb), $6 active_plan_id,
-- $7 active_add_on_ids (text[]), $8 billing anchor candidate (null: leave as is)
update companies c
set name = $4,
    traits = (c.traits || $5::jsonb)
             - coalesce((select array_agg(k) from jsonb_each($5::jsonb) as j (k, v) where jsonb_typeof(v) = 'null'), '{}'::text[]),
    active_plan_id = $6,
    active_add_on_ids = $7::text[],
    billing_anchor = coalesce(c.billing_anchor, $8::timestamptz)
where c.team_id = $1 and c.environment = $2 and c.id = $3
returning id, external_id, name, email, wallet_address, logo_url, traits, active_plan_id, active_add_on_ids,
          billing_anchor, created_at, last_seen_at, seq
