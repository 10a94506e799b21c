-- Grants credits to a company. Returns one row.
-- $1 id, $2 team_id, $3 environment, $4 company_id, $5 amount, $6 reason, $7 expires_at
insert into credit_grants (id, team_id, environment, company_id, amount, remaining, reason, expires_at)
values ($1, $2, $3, $4, $5, $5, $6, $7)
returning id, company_id, amount, remaining, reason, expires_at, created_at
