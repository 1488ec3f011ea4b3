-- YARA scans remember the sightings they covered: a file a company sees after the file was scanned
-- (its bytes already in the warehouse) is scanned again for that company, whose matches may be new.
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
ALTER TABLE yara_scans ADD COLUMN sightings_through bigint NOT NULL DEFAULT 0;
UPDATE yara_scans s SET sightings_through = coalesce((SELECT max(h.id) FROM warehouse_hashes h WHERE h.sha256 = s.sha256), 0);
-- Sightings of one file across companies (the scan's check for sightings newer than its scan).
CREATE INDEX warehouse_hashes_sha256 ON warehouse_hashes (sha256, id);
