-- Whether a user is a member of a company. Returns one row or none.
-- $1 team_id, $2 environment, $3 company_id, $4 user_id
select true as member
from company_memberships
where team_id = $1 and environment = $2 and company_id = $3 and user_id = $4
