-- Drops a company's quotes that expired more than a day before $4. Returns none.
-- $1 team_id, $2 environment, $3 company_id, $4 now
delete from plan_change_quotes
where team_id = $1 and environment = $2 and company_id = $3 and expires_at < $4::timestamptz - interval '1 day'
