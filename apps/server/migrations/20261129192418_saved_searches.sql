-- saved searches
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.

-- A query over kinds of data, owned by a user and shared with nobody, its company or chosen
-- companies. An enabled one runs every interval_minutes over the ingest batches that arrived
-- since enabled_at and that it has not read yet (saved_search_batches). batches_from: every batch
-- received before it has been read (a run that left nothing moves it to an hour before its start),
-- so a run looks no further back.
CREATE TABLE saved_searches (
  id                bigserial PRIMARY KEY,
  uuid              uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  company_id        bigint NOT NULL REFERENCES companies (id),
  owner_id          bigint REFERENCES users (id) ON DELETE SET NULL,
  name              text NOT NULL,
  query             text NOT NULL,
  kinds             text[] NOT NULL,
  enabled           boolean NOT NULL DEFAULT false,
  sharing           text NOT NULL DEFAULT 'private' CHECK (sharing IN ('private', 'company', 'companies')),
  company_ids       bigint[] NOT NULL DEFAULT '{}',
  interval_minutes  integer NOT NULL DEFAULT 15,
  alert             jsonb,
  enabled_at        timestamptz,
  batches_from      timestamptz,
  last_run_at       timestamptz,
  last_hits         integer,
  next_run_at       timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX saved_searches_company ON saved_searches (company_id);
CREATE INDEX saved_searches_owner ON saved_searches (owner_id);
CREATE INDEX saved_searches_due ON saved_searches (next_run_at) WHERE enabled;

-- What one run of a saved search found in one company (written only when it found something).
CREATE TABLE search_reports (
  id                 bigserial PRIMARY KEY,
  company_id         bigint NOT NULL REFERENCES companies (id),
  saved_search_id    bigint REFERENCES saved_searches (id) ON DELETE SET NULL,
  saved_search_name  text NOT NULL,
  ran_at             timestamptz NOT NULL,
  query              text NOT NULL,
  kinds              text[] NOT NULL,
  from_ts            timestamptz NOT NULL,
  to_ts              timestamptz NOT NULL,
  hit_count          integer NOT NULL,
  first_hits         jsonb NOT NULL DEFAULT '[]'::jsonb,
  alert_id           bigint
);
CREATE INDEX search_reports_company_ran ON search_reports (company_id, ran_at DESC, id DESC);
CREATE INDEX search_reports_saved_search ON search_reports (saved_search_id);

-- The ledger of a saved search's runs: each ingest batch it has read, written in the transaction
-- of the run's reports and alerts, so every batch is read once whatever stops a run.
CREATE TABLE saved_search_batches (
  saved_search_id  bigint NOT NULL REFERENCES saved_searches (id) ON DELETE CASCADE,
  company_id       bigint NOT NULL,
  batch_id         bigint NOT NULL,
  read_at          timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (saved_search_id, company_id, batch_id)
);
CREATE INDEX saved_search_batches_read ON saved_search_batches (read_at);

-- A run reads the events of chosen batches of a company.
CREATE INDEX network_events_batch ON network_events (company_id, batch_id);
CREATE INDEX endpoint_events_batch ON endpoint_events (company_id, batch_id);
CREATE INDEX mail_messages_batch ON mail_messages (company_id, batch_id);
