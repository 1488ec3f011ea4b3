-- maintenance
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
-- One row: whether the system is in maintenance (every /api/ route but the health check answers
-- 423), why, and since when. Every server process reads it at start, on NOTIFY vigil_maintenance
-- and every few seconds.
CREATE TABLE maintenance_state (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  active boolean NOT NULL DEFAULT false,
  reason text NOT NULL DEFAULT 'administrator' CHECK (reason IN ('administrator', 'migration')),
  since timestamptz
);
INSERT INTO maintenance_state (singleton, active) VALUES (true, false);
