-- Idempotency keys are scoped to the company a use is about, not only to the tenant and endpoint.
-- A browser's embed token acts for one company, and its keys shared one namespace with every other
-- company's: a key used by one company answered another's request with the first company's outcome
-- and event id (and a replay instead of a use), and a browser could spend keys its server would send
-- for other companies later. A retry always names the same company, so per company loses nothing.
-- A use without a company (a track naming none) keys on the empty string, as before on the tenant.
drop index events_idempotency;
create unique index events_idempotency on events (team_id, environment, source, idempotency_key, coalesce(company_id, ''))
  where idempotency_key is not null;

-- meter_settle(), fifth version, finds a retry's first attempt by its key within the same company and
-- writes keyed events in the order of this unique key: see sql/functions/meter_settle.sql.
