-- Takes the next number of a tenant's series (invoice or credit_note) in the caller's transaction: the row
-- stays locked until commit, so concurrent issuers queue and a rollback gives the number back. Returns one row.
-- $1 team_id, $2 environment, $3 series
insert into document_number_counters (team_id, environment, series, last_value)
values ($1, $2, $3, 1)
on conflict (team_id, environment, series) do update set last_value = document_number_counters.last_value + 1
returning last_value
