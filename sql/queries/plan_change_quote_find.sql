-- A company's quote by id, unlocked. Returns one row or none.
-- $1 team_id, $2 environment, $3 company_id, $4 id
select * from plan_change_quotes where team_id = $1 and environment = $2 and company_id = $3 and id = $4
