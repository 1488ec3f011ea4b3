-- Detection rules: Suricata signatures, Sigma rules and YARA rules in one store (docs/detection-rules.md).
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
--
-- Scope, as for policy indicators: `company` applies to company_id only; `all` applies to every
-- company and is owned by the provider company whose staff imported it (company_id keeps its meaning
-- "the row's tenant", so the key stays (company_id, id) like every tenant table). A rule for all
-- companies can be turned off for one company (rule_company_settings). Rules for all companies are
-- changed only by staff who see every company; a customer sees them (read-only) and can turn them off
-- for itself.
--
-- rule_key names a rule across revisions: the Sigma `id`, Suricata `gid:sid`, YARA `<file>:<rule name>`.
-- One rule per (kind, company, key) and one per (kind, key) for all companies: import upserts on those.
-- `revision` counts the stored revisions (1, 2, …); the rule's own revision (Suricata `rev`, Sigma
-- `modified`) is among the parsed fields in `details`.
CREATE TABLE rules (
  company_id      bigint NOT NULL REFERENCES companies (id),
  id              bigserial NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('suricata', 'sigma', 'yara')),
  scope           text NOT NULL DEFAULT 'company' CHECK (scope IN ('company', 'all')),
  rule_key        text NOT NULL,
  revision        integer NOT NULL DEFAULT 1,
  title           text NOT NULL,
  description     text NOT NULL DEFAULT '',
  -- Sigma level and Suricata/YARA severity mapped onto the alert severities.
  level           text NOT NULL DEFAULT 'medium' CHECK (level IN ('info', 'low', 'medium', 'high', 'critical')),
  tags            text[] NOT NULL DEFAULT '{}',
  -- ATT&CK ids from tags or metadata: tactics (TA0002) and techniques (T1059, T1059.001).
  techniques      text[] NOT NULL DEFAULT '{}',
  author          text NOT NULL DEFAULT '',
  "references"    text[] NOT NULL DEFAULT '{}',
  licence         text NOT NULL DEFAULT '',
  -- Kind-specific parsed fields: Suricata sid, gid, rev, classtype, action, protocol, metadata;
  -- Sigma status, logsource, modified; YARA namespace, meta, string identifiers.
  details         jsonb NOT NULL DEFAULT '{}',
  source          text NOT NULL,
  -- SHA-256 of the source text: re-importing the same text changes nothing.
  source_sha256   text NOT NULL,
  file_name       text NOT NULL DEFAULT '',
  enabled         boolean NOT NULL DEFAULT true,
  -- Set when the engine cannot run the rule (it is then stored disabled and cannot be enabled):
  -- why, in words a detection engineer understands.
  unsupported     text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  created_by      bigint REFERENCES users (id) ON DELETE SET NULL,
  PRIMARY KEY (company_id, id),
  CHECK (unsupported IS NULL OR NOT enabled)
);
CREATE UNIQUE INDEX rules_id_key ON rules (id);
CREATE UNIQUE INDEX rules_company_key ON rules (kind, company_id, rule_key) WHERE scope = 'company';
CREATE UNIQUE INDEX rules_all_key ON rules (kind, rule_key) WHERE scope = 'all';
CREATE INDEX rules_list ON rules (company_id, kind, updated_at DESC, id DESC);
CREATE INDEX rules_tags ON rules USING gin (tags);
CREATE INDEX rules_techniques ON rules USING gin (techniques);

-- Every stored revision of a rule's source, newest last; the diff is computed when read.
CREATE TABLE rule_revisions (
  rule_id     bigint NOT NULL REFERENCES rules (id) ON DELETE CASCADE,
  revision    integer NOT NULL,
  source      text NOT NULL,
  changed_at  timestamptz NOT NULL DEFAULT now(),
  changed_by  bigint REFERENCES users (id) ON DELETE SET NULL,
  PRIMARY KEY (rule_id, revision)
);

-- A rule for all companies turned off (or back on) for one company.
CREATE TABLE rule_company_settings (
  company_id  bigint NOT NULL REFERENCES companies (id),
  rule_id     bigint NOT NULL REFERENCES rules (id) ON DELETE CASCADE,
  enabled     boolean NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, rule_id)
);

-- Hits per rule, company and day (what the rule lists and pages chart); written by the raise stage.
CREATE TABLE rule_hits (
  company_id  bigint NOT NULL REFERENCES companies (id),
  rule_id     bigint NOT NULL REFERENCES rules (id) ON DELETE CASCADE,
  day         date NOT NULL,
  hits        bigint NOT NULL DEFAULT 0,
  last_hit_at timestamptz NOT NULL,
  PRIMARY KEY (rule_id, company_id, day)
);

-- Suricata threshold.config entries per company (suppress, threshold, event_filter, rate_filter as
-- text in threshold.config syntax, one entry per row, parsed by threshold-config.ts).
CREATE TABLE suricata_thresholds (
  company_id  bigint NOT NULL REFERENCES companies (id),
  id          bigserial NOT NULL,
  entry       text NOT NULL,
  comment     text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  -- Moved on by every change: what the export's version of a company's threshold.config reads.
  updated_at  timestamptz NOT NULL DEFAULT now(),
  created_by  bigint REFERENCES users (id) ON DELETE SET NULL,
  PRIMARY KEY (company_id, id)
);
CREATE UNIQUE INDEX suricata_thresholds_id_key ON suricata_thresholds (id);
