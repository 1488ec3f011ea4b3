-- Identity and access: profiles, two-factor, API tokens, lock-out, units, SSO, activation, jobs.

CREATE TABLE units (
  id          bigserial PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies (id),
  name        text NOT NULL,
  description text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX units_company_name_key ON units (company_id, lower(name));

ALTER TABLE users
  ADD COLUMN unit_id bigint REFERENCES units (id) ON DELETE SET NULL,
  ADD COLUMN phone text NOT NULL DEFAULT '',
  -- IANA zone; NULL means "the browser's zone".
  ADD COLUMN time_zone text,
  ADD COLUMN theme text NOT NULL DEFAULT 'dark',
  ADD COLUMN locale text NOT NULL DEFAULT 'en',
  -- Addresses or CIDR ranges the user may sign in and work from; empty means anywhere.
  ADD COLUMN ip_whitelist text[] NOT NULL DEFAULT '{}',
  ADD COLUMN mailing_setting jsonb NOT NULL DEFAULT '{}'::jsonb,
  ADD COLUMN telephone_notifications_settings jsonb NOT NULL
    DEFAULT '{"weekdays": {"enabled": true}, "weekends": {"enabled": true}}'::jsonb,
  -- Receives calls for critical alerts.
  ADD COLUMN critan boolean NOT NULL DEFAULT false,
  ADD COLUMN privileged_settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- TOTP: the active secret, one generated but not yet confirmed, and the last time step used.
  ADD COLUMN otp_secret text,
  ADD COLUMN otp_pending_secret text,
  ADD COLUMN otp_last_step bigint,
  ADD COLUMN token_hash text,
  ADD COLUMN token_created_at timestamptz,
  ADD COLUMN failed_logins integer NOT NULL DEFAULT 0,
  ADD COLUMN locked_until timestamptz,
  ADD COLUMN last_login_at timestamptz,
  ADD COLUMN sso_subject text;
CREATE UNIQUE INDEX users_token_hash_key ON users (token_hash) WHERE token_hash IS NOT NULL;

-- Failed sign-ins by address, for the per-IP limit (per-account state lives on the user).
CREATE TABLE auth_failures (
  id  bigserial PRIMARY KEY,
  ip  text NOT NULL,
  at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_failures_ip_idx ON auth_failures (ip, at);

-- One-time links: account activation and password reset. Only the token's SHA-256 is kept.
CREATE TABLE user_tokens (
  token_hash text PRIMARY KEY,
  user_id    bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose    text NOT NULL CHECK (purpose IN ('activation', 'password_reset')),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX user_tokens_user_idx ON user_tokens (user_id);

-- OpenID Connect single sign-on, per company.
CREATE TABLE company_sso (
  company_id       bigint PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
  enabled          boolean NOT NULL DEFAULT true,
  issuer           text NOT NULL,
  client_id        text NOT NULL,
  client_secret    text NOT NULL DEFAULT '',
  scopes           text NOT NULL DEFAULT 'openid email profile',
  -- Create unknown users at their first SSO sign-in, with this role.
  jit_create       boolean NOT NULL DEFAULT false,
  default_role_id  bigint REFERENCES roles (id) ON DELETE SET NULL,
  password_change_url text,
  updated_at       timestamptz NOT NULL DEFAULT now()
);

-- Work done after commit: mail, webhooks. Retried with back-off until max_attempts.
CREATE TABLE jobs (
  id           bigserial PRIMARY KEY,
  kind         text NOT NULL,
  payload      jsonb NOT NULL DEFAULT '{}'::jsonb,
  status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed')),
  attempts     integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 5,
  run_at       timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  last_error   text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz
);
CREATE INDEX jobs_due_idx ON jobs (run_at) WHERE status IN ('pending', 'running');
