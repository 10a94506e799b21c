-- A company's credit balance in one currency (micro-units, positive: owed to the customer). Returns one row.
-- $1 team_id, $2 environment, $3 company_id, $4 currency
select coalesce(sum(amount), 0)::int8 as balance
from customer_balance_entries
where team_id = $1 and environment = $2 and company_id = $3 and currency = $4
