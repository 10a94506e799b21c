-- What still refers to a plan, so that removing it archives instead of deleting: companies on it (as
-- plan or add-on), payment links and checkout sessions selling it, coupons restricted to it. Returns one row.
-- $1 team_id, $2 environment, $3 plan id
select (select count(*) from companies c
        where c.team_id = $1 and c.environment = $2 and (c.active_plan_id = $3 or $3 = any(c.active_add_on_ids)))::int as companies,
       (select count(*) from payment_links l where l.team_id = $1 and l.environment = $2 and l.add_on_plan_id = $3)::int
         + (select count(*) from checkout_sessions s where s.team_id = $1 and s.environment = $2 and s.add_on_plan_id = $3)::int as payments,
       (select count(*) from coupons k where k.team_id = $1 and k.environment = $2 and $3 = any(k.plan_ids))::int as coupons
