-- YARA on files: which warehouse file was scanned with which enabled rule set, and what matched
-- (docs/detection-rules.md). Written by the rules module's scan job only.
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
--
-- `ruleset` is a digest of the enabled YARA rules of every scope (ids and revisions): a file whose
-- row names another digest, or has no row, is scanned again by the background job. `error` says why
-- a file was not scanned (too large, timed out); such a file is not retried until the set changes.
CREATE TABLE yara_scans (
  sha256      text PRIMARY KEY,
  ruleset     text NOT NULL,
  scanned_at  timestamptz NOT NULL DEFAULT now(),
  error       text
);
CREATE INDEX yara_scans_ruleset ON yara_scans (ruleset);

-- One row per company, file and matching rule revision: a company keeps only matches of the rules
-- effective for it (its own rules and rules for all companies it did not turn off). A row that
-- exists already is not raised again, so a rescan raises only new matches.
CREATE TABLE yara_matches (
  company_id  bigint NOT NULL REFERENCES companies (id),
  sha256      text NOT NULL,
  rule_id     bigint NOT NULL REFERENCES rules (id) ON DELETE CASCADE,
  revision    integer NOT NULL,
  rule_name   text NOT NULL,
  namespace   text NOT NULL,
  tags        text[] NOT NULL DEFAULT '{}',
  meta        jsonb NOT NULL DEFAULT '{}',
  -- [{identifier, offset, length}], at most a few dozen per match.
  strings     jsonb NOT NULL DEFAULT '[]',
  matched_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, sha256, rule_id, revision)
);
CREATE INDEX yara_matches_rule ON yara_matches (rule_id);
