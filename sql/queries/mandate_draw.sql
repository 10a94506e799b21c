-- Lowers a mandate's remaining amount by one pull, in the transaction that records the pull; never below 0
-- (the CHECK refuses it). Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 amount (numeric text), $5 now
update mandates set remaining_amount = remaining_amount - $4::numeric, updated_at = $5
where team_id = $1 and environment = $2 and id = $3
returning *
