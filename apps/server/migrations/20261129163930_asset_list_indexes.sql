-- asset_list_indexes
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
-- Indexes the assets list's orderings as the list engine writes them: by last seen with a missing
-- time last (`coalesce(last_seen, '-infinity')`, per company), and by name for provider staff, who
-- see every company at once.
DROP INDEX assets_company_last_seen;
CREATE INDEX assets_company_last_seen ON assets (company_id, (coalesce(last_seen, '-infinity'::timestamptz)) DESC, id DESC);
CREATE INDEX assets_name ON assets (lower(name), id);
