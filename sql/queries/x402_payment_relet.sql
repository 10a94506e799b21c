-- Takes over a claim whose request gave up on its settlement's outcome (claimed at or before the cutoff), so one
-- retry at a time completes it. Returns one row (none when it is settled, failed, or claimed after the cutoff).
-- $1 team_id, $2 environment, $3 id, $4 cutoff, $5 now
update x402_payments set claimed_at = $5::timestamptz
where team_id = $1 and environment = $2 and id = $3 and status = 'claimed' and claimed_at <= $4::timestamptz
returning id
