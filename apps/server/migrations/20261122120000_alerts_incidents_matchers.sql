-- alerts, incidents, matchers
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
-- Tenant tables keep company_id first in their primary key. Lookups by id alone (detail pages)
-- use a plain index on id.

CREATE TABLE alerts (
  company_id   bigint NOT NULL REFERENCES companies (id),
  id           bigserial,
  title        text NOT NULL,
  description  text NOT NULL DEFAULT '',
  severity     text NOT NULL CHECK (severity IN ('info', 'low', 'medium', 'high', 'critical')),
  score        integer NOT NULL CHECK (score BETWEEN 0 AND 100),
  status       text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'in_progress', 'resolved', 'closed')),
  resolution   text CHECK (resolution IN ('true_positive', 'false_positive', 'benign', 'duplicate')),
  assignee_id  bigint,
  source       text NOT NULL CHECK (source IN ('network', 'endpoint', 'mail')),
  detection    jsonb NOT NULL,
  dedup_key    text NOT NULL,
  first_seen   timestamptz NOT NULL,
  last_seen    timestamptz NOT NULL,
  count        bigint NOT NULL DEFAULT 1,
  observables  jsonb NOT NULL DEFAULT '[]'::jsonb,
  mitre        text[] NOT NULL DEFAULT '{}',
  tags         text[] NOT NULL DEFAULT '{}',
  incident_id  bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, id)
);
CREATE INDEX alerts_id_idx ON alerts (id);
-- The alert queue: one company (or a few) filtered by status and severity, newest activity first.
CREATE INDEX alerts_queue_idx ON alerts (company_id, status, severity, last_seen DESC, id DESC);
-- The same queue for staff who see every company.
CREATE INDEX alerts_queue_all_idx ON alerts (status, severity, last_seen DESC, id DESC);
-- Unfiltered lists by last activity.
CREATE INDEX alerts_company_last_seen_idx ON alerts (company_id, last_seen DESC, id DESC);
-- Deduplication looks only at alerts still open.
CREATE INDEX alerts_dedup_idx ON alerts (company_id, dedup_key, last_seen DESC) WHERE status IN ('new', 'in_progress');
CREATE INDEX alerts_incident_idx ON alerts (company_id, incident_id) WHERE incident_id IS NOT NULL;

-- Events an alert was raised from: the first 100 per alert (alerts.count has the total).
CREATE TABLE alert_events (
  company_id  bigint NOT NULL,
  alert_id    bigint NOT NULL,
  event_kind  text NOT NULL CHECK (event_kind IN ('network', 'endpoint', 'mail')),
  event_id    bigint NOT NULL,
  ts          timestamptz NOT NULL,
  PRIMARY KEY (company_id, alert_id, event_kind, event_id)
);

CREATE TABLE alert_comments (
  company_id  bigint NOT NULL,
  id          bigserial,
  alert_id    bigint NOT NULL,
  user_id     bigint,
  username    text,
  body        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, id)
);
CREATE INDEX alert_comments_alert_idx ON alert_comments (company_id, alert_id, id);

-- Alerts changed by one bulk action: the bulk's audit record stands for each alert's history.
CREATE TABLE alert_bulk_changes (
  company_id     bigint NOT NULL,
  alert_id       bigint NOT NULL,
  system_log_id  bigint NOT NULL,
  PRIMARY KEY (company_id, alert_id, system_log_id)
);

CREATE TABLE incidents (
  company_id       bigint NOT NULL REFERENCES companies (id),
  id               bigserial,
  title            text NOT NULL,
  description      text NOT NULL DEFAULT '',
  severity         text NOT NULL CHECK (severity IN ('info', 'low', 'medium', 'high', 'critical')),
  status           text NOT NULL DEFAULT 'open'
                   CHECK (status IN ('open', 'investigating', 'contained', 'resolved', 'closed')),
  assignee_id      bigint,
  -- Set on incidents made by a grouping rule: `host:<name>` or `user:<name>`.
  group_key        text,
  observables      jsonb NOT NULL DEFAULT '[]'::jsonb,
  acknowledged_at  timestamptz,
  resolved_at      timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, id)
);
CREATE INDEX incidents_id_idx ON incidents (id);
CREATE INDEX incidents_queue_idx ON incidents (company_id, status, created_at DESC, id DESC);
CREATE INDEX incidents_created_idx ON incidents (created_at DESC, id DESC);
CREATE INDEX incidents_group_idx ON incidents (company_id, group_key, updated_at DESC)
  WHERE group_key IS NOT NULL AND status IN ('open', 'investigating', 'contained');

CREATE TABLE incident_timeline (
  company_id   bigint NOT NULL,
  id           bigserial,
  incident_id  bigint NOT NULL,
  kind         text NOT NULL,
  user_id      bigint,
  username     text,
  -- Comments keep their Markdown as written; the console renders it.
  body         text NOT NULL DEFAULT '',
  data         jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, id)
);
CREATE INDEX incident_timeline_incident_idx ON incident_timeline (company_id, incident_id, id);

CREATE TABLE incident_tasks (
  company_id   bigint NOT NULL,
  id           bigserial,
  incident_id  bigint NOT NULL,
  title        text NOT NULL,
  status       text NOT NULL DEFAULT 'todo' CHECK (status IN ('todo', 'in_progress', 'done')),
  assignee_id  bigint,
  due_at       timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, id)
);
CREATE INDEX incident_tasks_incident_idx ON incident_tasks (company_id, incident_id, id);

-- Per-company grouping of new alerts into incidents; no row means grouping is off.
CREATE TABLE incident_grouping (
  company_id      bigint NOT NULL REFERENCES companies (id),
  enabled         boolean NOT NULL DEFAULT true,
  by_host         boolean NOT NULL DEFAULT true,
  by_user         boolean NOT NULL DEFAULT false,
  window_minutes  integer NOT NULL DEFAULT 60 CHECK (window_minutes BETWEEN 1 AND 10080),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id)
);

CREATE TABLE matchers (
  company_id     bigint NOT NULL REFERENCES companies (id),
  id             bigserial,
  name           text NOT NULL,
  enabled        boolean NOT NULL DEFAULT true,
  -- Provider staff may make a matcher that applies to every company's alerts.
  all_companies  boolean NOT NULL DEFAULT false,
  position       integer NOT NULL DEFAULT 0,
  conditions     jsonb NOT NULL DEFAULT '{}'::jsonb,
  actions        jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, id)
);
CREATE INDEX matchers_id_idx ON matchers (id);

-- Committed actions: every action a matcher took, kept in the alert's company.
CREATE TABLE matcher_actions (
  company_id  bigint NOT NULL,
  id          bigserial,
  matcher_id  bigint NOT NULL,
  alert_id    bigint NOT NULL,
  action      text NOT NULL,
  params      jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- applied: changed the alert in the batch transaction; queued: a job runs it after commit.
  outcome     text NOT NULL CHECK (outcome IN ('applied', 'queued')),
  job_id      bigint,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, id)
);
CREATE INDEX matcher_actions_time_idx ON matcher_actions (company_id, created_at DESC, id DESC);
CREATE INDEX matcher_actions_alert_idx ON matcher_actions (company_id, alert_id);
