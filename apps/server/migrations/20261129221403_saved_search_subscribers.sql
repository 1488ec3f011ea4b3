-- saved search subscribers
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.

-- Users mailed each report with hits that a run of the saved search writes, when they can read it.
CREATE TABLE saved_search_subscribers (
  saved_search_id  bigint NOT NULL REFERENCES saved_searches (id) ON DELETE CASCADE,
  user_id          bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (saved_search_id, user_id)
);
CREATE INDEX saved_search_subscribers_user ON saved_search_subscribers (user_id);
