-- The counters of each company's Suricata thresholds (threshold.config `threshold` and `event_filter`
-- entries, and rules' own threshold and detection_filter), shared by every server process: a batch
-- reads the counters of its alerts, decides, and writes them back under a per-company lock, so two
-- processes count one window together (docs/detection-rules.md). Written by the rules module only.
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
CREATE TABLE suricata_threshold_counters (
  company_id   bigint NOT NULL REFERENCES companies (id),
  -- The entries' digest, then origin|gid|sid|track value.
  counter_key  text NOT NULL,
  -- Milliseconds since the epoch, in the alerts' own time.
  window_start bigint NOT NULL,
  -- Null for backoff counters, which count for as long as their flow lives.
  window_end   bigint,
  count        integer NOT NULL,
  next         integer NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, counter_key)
);
CREATE INDEX suricata_threshold_counters_end ON suricata_threshold_counters (company_id, window_end);
