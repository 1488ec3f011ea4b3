-- matcher actions skipped
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
-- A matcher action that the rules of alert changes refuse when it runs (a user who does not work on
-- the alert's company, an incident of another company) is recorded as skipped, with the reason.
ALTER TABLE matcher_actions DROP CONSTRAINT matcher_actions_outcome_check;
ALTER TABLE matcher_actions ADD CONSTRAINT matcher_actions_outcome_check
  CHECK (outcome IN ('applied', 'queued', 'skipped'));
ALTER TABLE matcher_actions ADD COLUMN reason text;
