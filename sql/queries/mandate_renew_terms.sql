-- A mandate the payer approved again on chain (a new allowance or expiry): ACTIVE with the new approval's
-- amounts and expiry. A REVOKED mandate never changes. Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 authorized_amount, $5 remaining_amount, $6 expires_at, $7 now
update mandates set status = 'ACTIVE', authorized_amount = $4::numeric, remaining_amount = $5::numeric, expires_at = $6,
  expired_at = null, expiry_reason = null, updated_at = $7
where team_id = $1 and environment = $2 and id = $3 and status in ('ACTIVE', 'EXPIRED')
returning *
