-- employees
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.

-- Employees of a company. `accounts` and `emails` are kept in lower case so that a user name of
-- an endpoint event or a mail address resolves to the employee by array containment.
CREATE TABLE employees (
  id                  bigserial PRIMARY KEY,
  company_id          bigint NOT NULL REFERENCES companies (id),
  full_name           text NOT NULL,
  emails              text[] NOT NULL DEFAULT '{}',
  accounts            text[] NOT NULL DEFAULT '{}',
  department          text NOT NULL DEFAULT '',
  title               text NOT NULL DEFAULT '',
  manager_id          bigint REFERENCES employees (id) ON DELETE SET NULL,
  phone               text NOT NULL DEFAULT '',
  unit_id             bigint REFERENCES units (id) ON DELETE SET NULL,
  -- The Active Directory distinguished name an import gave, so that Manager DNs resolve.
  distinguished_name  text,
  archived_at         timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX employees_company_name ON employees (company_id, lower(full_name), id);
-- Without a pending list: an import looks rows up while it writes them, and a lookup would read
-- the whole unmerged list each time.
CREATE INDEX employees_accounts ON employees USING gin (accounts) WITH (fastupdate = off);
CREATE INDEX employees_emails ON employees USING gin (emails) WITH (fastupdate = off);
CREATE INDEX employees_manager ON employees (manager_id);
CREATE INDEX employees_unit ON employees (unit_id);
CREATE INDEX employees_dn ON employees (company_id, lower(distinguished_name)) WHERE distinguished_name IS NOT NULL;

-- An employee's alerts: alerts whose observables name one of their accounts or addresses, in any
-- letter case (alerts write user names as the event did: CORP\JDoe).
CREATE INDEX alerts_observables_lower ON alerts USING gin ((lower(observables::text)::jsonb) jsonb_path_ops);
