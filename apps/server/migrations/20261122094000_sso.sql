-- sso
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.

-- OpenID Connect sign-ins in progress, between the redirect to the provider and its callback.
-- Kept in the database (not in process memory) so any server process can finish a sign-in that
-- another one started. Rows live for minutes and are looked up by state alone, so the key is the
-- state's SHA-256 rather than (company_id, …).
CREATE TABLE sso_login_states (
  id            text PRIMARY KEY,
  company_id    bigint NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  code_verifier text NOT NULL,
  nonce         text NOT NULL,
  redirect_uri  text NOT NULL,
  -- A path of the console to land on after signing in.
  next_path     text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL
);
CREATE INDEX sso_login_states_expiry_idx ON sso_login_states (expires_at);

-- A provider identity (its `sub`) links to at most one user of the company using that provider.
CREATE UNIQUE INDEX users_sso_subject_key ON users (company_id, sso_subject) WHERE sso_subject IS NOT NULL;
