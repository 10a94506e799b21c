-- The subscription an activation reference reserved. Returns one row or none.
-- $1 team_id, $2 environment, $3 network, $4 activation_reference
select * from subscriptions where team_id = $1 and environment = $2 and network = $3 and activation_reference = $4
