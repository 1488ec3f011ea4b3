-- Companies are the tenants. The provider company runs the service; customers are watched by it.
CREATE TABLE companies (
  id          bigserial PRIMARY KEY,
  name        text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('provider', 'customer')),
  label_name  text,
  description text NOT NULL DEFAULT '',
  is_active   boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX companies_name_key ON companies (lower(name));
-- At most one provider company.
CREATE UNIQUE INDEX companies_one_provider ON companies (kind) WHERE kind = 'provider';

CREATE TABLE users (
  id                 bigserial PRIMARY KEY,
  company_id         bigint NOT NULL REFERENCES companies (id),
  username           text NOT NULL,
  email              text,
  first_name         text NOT NULL DEFAULT '',
  last_name          text NOT NULL DEFAULT '',
  password_hash      text,
  password_changed_at timestamptz,
  -- Set for a password that must be replaced at next sign-in (bootstrap, administrator reset).
  password_must_change boolean NOT NULL DEFAULT false,
  is_superuser       boolean NOT NULL DEFAULT false,
  -- Provider staff granted every company, present and future.
  all_companies      boolean NOT NULL DEFAULT false,
  archived_at        timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_key ON users (lower(email)) WHERE email IS NOT NULL;
CREATE INDEX users_company_idx ON users (company_id);

-- Extra companies a user may see besides its own.
CREATE TABLE user_companies (
  user_id    bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  company_id bigint NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, company_id)
);

-- Roles bundle permissions [{basename, actions}] over the resource registry.
CREATE TABLE roles (
  id          bigserial PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies (id),
  name        text NOT NULL,
  description text NOT NULL DEFAULT '',
  permissions jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX roles_company_name_key ON roles (company_id, lower(name));

CREATE TABLE user_roles (
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role_id bigint NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, role_id)
);

-- Server-side sessions; the cookie carries a random token, the table only its SHA-256.
CREATE TABLE sessions (
  id                text PRIMARY KEY,
  user_id           bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  impersonator_id   bigint REFERENCES users (id) ON DELETE CASCADE,
  created_at        timestamptz NOT NULL DEFAULT now(),
  last_seen_at      timestamptz NOT NULL DEFAULT now(),
  expires_at        timestamptz NOT NULL,
  ip                text,
  user_agent        text NOT NULL DEFAULT '',
  two_factor_passed boolean NOT NULL DEFAULT false,
  ended_at          timestamptz
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

-- The audit log. company_id leads the key so the table can be distributed by tenant.
CREATE TABLE system_logs (
  company_id      bigint NOT NULL,
  id              bigserial,
  date_time       timestamptz NOT NULL DEFAULT now(),
  user_id         bigint,
  username        text,
  impersonator_id bigint,
  ip              text,
  action          text NOT NULL,
  object_type     text NOT NULL,
  object_id       text,
  object_repr     text,
  changes         jsonb NOT NULL DEFAULT '{}'::jsonb,
  PRIMARY KEY (company_id, id)
);
CREATE INDEX system_logs_company_time_idx ON system_logs (company_id, date_time DESC, id DESC);
CREATE INDEX system_logs_time_idx ON system_logs (date_time DESC, id DESC);
CREATE INDEX system_logs_object_idx ON system_logs (object_type, object_id);
CREATE INDEX system_logs_user_idx ON system_logs (user_id, date_time DESC);
