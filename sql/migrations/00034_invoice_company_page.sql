-- The dashboard's invoice list filters by company (GET /dashboard/invoices?companyId=, the company page's
-- invoices), newest first; the filter pages on an index of its own, as invoices_status_page does, so a company's
-- few invoices in a large tenant are not found by walking every newer row.
create index invoices_company_page on invoices (team_id, environment, company_id, seq desc);
