-- Releases a claim that sent nothing because the service could not (no operator key, no gas money): the same
-- authorization may be presented again once that is fixed. Returns none.
-- $1 team_id, $2 environment, $3 id
delete from x402_payments where team_id = $1 and environment = $2 and id = $3 and status = 'claimed'
