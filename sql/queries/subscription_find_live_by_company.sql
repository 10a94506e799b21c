-- A company's live subscription (INCOMPLETE, TRIALING, ACTIVE or PAST_DUE), unlocked. Returns one row or none.
-- $1 team_id, $2 environment, $3 company_id
select * from subscriptions
where team_id = $1 and environment = $2 and company_id = $3 and status in ('INCOMPLETE', 'TRIALING', 'ACTIVE', 'PAST_DUE')
