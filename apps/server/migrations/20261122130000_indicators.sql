-- Policy indicators (IP, CIDR, domain, URL, e-mail, hashes, file name) with a policy, severity and
-- expiry.
--
-- Scope: `company` applies to company_id only; `all` applies to every company and is owned by the
-- company of the staff member who made it (company_id keeps its meaning "the row's tenant", so the
-- key stays (company_id, id) like every tenant table). All-companies indicators are visible only to
-- staff who see every company.
--
-- One indicator per (company, type, value) and one per (type, value) for all companies: the CSV
-- import upserts on those keys. `value` is stored normalised (see indicator-values.ts).
CREATE TABLE indicators (
  company_id  bigint NOT NULL REFERENCES companies (id),
  id          bigserial NOT NULL,
  scope       text NOT NULL DEFAULT 'company' CHECK (scope IN ('company', 'all')),
  type        text NOT NULL CHECK (type IN ('ip', 'cidr', 'domain', 'url', 'email', 'md5', 'sha1', 'sha256', 'filename')),
  value       text NOT NULL,
  policy      text NOT NULL DEFAULT 'alert' CHECK (policy IN ('alert', 'ignore')),
  severity    text NOT NULL DEFAULT 'medium' CHECK (severity IN ('info', 'low', 'medium', 'high', 'critical')),
  expires_at  timestamptz,
  tags        text[] NOT NULL DEFAULT '{}',
  source      text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, id)
);
CREATE UNIQUE INDEX indicators_id_key ON indicators (id);
CREATE UNIQUE INDEX indicators_company_value ON indicators (company_id, type, value) WHERE scope = 'company';
CREATE UNIQUE INDEX indicators_all_value ON indicators (type, value) WHERE scope = 'all';
CREATE INDEX indicators_list ON indicators (company_id, updated_at DESC, id DESC);
CREATE INDEX indicators_tags ON indicators USING gin (tags);
