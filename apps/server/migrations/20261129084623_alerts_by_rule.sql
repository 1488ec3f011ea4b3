-- The alerts a stored detection rule raised (a rule's page lists them; the alert filter `rule_id`).
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
CREATE INDEX alerts_stored_rule_idx ON alerts (((detection ->> 'storedRuleId')::int8), last_seen DESC);
