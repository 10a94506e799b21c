-- Issue 21, operating subscriptions: the dashboard's and the CLI's lists filter a tenant's subscriptions by
-- status or by company, newest first; each filter pages on an index of its own, as invoices_status_page does,
-- so a rare status in a large tenant is not found by walking every newer row.
create index subscriptions_status_page on subscriptions (team_id, environment, status, seq desc);
create index subscriptions_company_page on subscriptions (team_id, environment, company_id, seq desc);
