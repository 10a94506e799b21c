-- Links a succeeded chain operation to the payment that records it. Returns no rows.
-- $1 team_id, $2 environment, $3 id, $4 payment_id
update subscription_charges set payment_id = $4 where team_id = $1 and environment = $2 and id = $3
