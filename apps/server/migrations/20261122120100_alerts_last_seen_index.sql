-- alerts last seen index and fillfactor
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.

-- Staff who see every company and filter the queue by several statuses or severities: the
-- planner walks this index newest first and stops after a page, instead of fetching and sorting
-- every matching alert (bench/alerts measured ~250 ms at 1,000,000 alerts without it).
CREATE INDEX alerts_last_seen_idx ON alerts (last_seen DESC, id DESC);

-- Alerts are updated often (deduplication, triage, bulk actions) and every such update changes an
-- indexed column, so it cannot be HOT; room left in each page keeps the new row version on the
-- same page. A bulk close of 100,000 alerts took ~2 s instead of ~4.7 s with it (bench/alerts).
ALTER TABLE alerts SET (fillfactor = 85);
