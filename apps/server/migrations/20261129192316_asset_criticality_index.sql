-- asset criticality index
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
-- The assets in use of a company by criticality: the list's most common filter ("high and critical")
-- counts them from this index alone instead of reading every asset of the company.
CREATE INDEX assets_company_criticality ON assets (company_id, criticality) WHERE archived_at IS NULL;
