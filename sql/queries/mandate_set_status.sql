-- Ends a mandate: REVOKED (who, why) or EXPIRED (why). Only an ACTIVE mandate changes. Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 status, $5 revoked_by, $6 revoke_reason, $7 expiry_reason, $8 now
update mandates set status = $4,
  revoked_at = case when $4 = 'REVOKED' then $8::timestamptz end, revoked_by = $5, revoke_reason = $6,
  expired_at = case when $4 = 'EXPIRED' then $8::timestamptz end, expiry_reason = $7, updated_at = $8
where team_id = $1 and environment = $2 and id = $3 and status = 'ACTIVE'
returning *
