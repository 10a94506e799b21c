-- The mandates of some of the tenant's subscriptions (a list page's). Returns many (at most one per subscription).
-- $1 team_id, $2 environment, $3 subscription ids (text[])
select * from mandates where team_id = $1 and environment = $2 and subscription_id = any($3::text[])
