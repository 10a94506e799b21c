-- Links a user to a company (idempotent). Returns none.
-- $1 team_id, $2 environment, $3 company_id, $4 user_id
insert into company_memberships (team_id, environment, company_id, user_id)
values ($1, $2, $3, $4)
on conflict do nothing
