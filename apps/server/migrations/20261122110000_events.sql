-- Event storage (network, endpoint, mail), the warehouse, ingest tokens and batches, retention.
--
-- Event tables are partitioned by month on `ts` (partitions are made on demand by the ingest
-- path through vigil_ensure_month_partition, and a DEFAULT partition takes any other date so no
-- event is ever refused for it). Every primary key starts with company_id (the distribution
-- column, DESIGN.md §4) and holds ts (a partitioned table's keys must contain the partition key).

ALTER TABLE companies ADD COLUMN retention_days integer NOT NULL DEFAULT 90
  CHECK (retention_days BETWEEN 1 AND 3650);

CREATE TABLE ingest_tokens (
  company_id   bigint NOT NULL REFERENCES companies (id),
  id           bigserial NOT NULL,
  name         text NOT NULL,
  -- SHA-256 of the key (hex); the key itself is shown once and never stored.
  key_hash     text NOT NULL,
  key_prefix   text NOT NULL,
  created_by   bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at   timestamptz,
  PRIMARY KEY (company_id, id)
);
CREATE UNIQUE INDEX ingest_tokens_id_key ON ingest_tokens (id);
CREATE UNIQUE INDEX ingest_tokens_key_hash_key ON ingest_tokens (key_hash);

-- One row per committed batch: its answer, so a retry with the same Idempotency-Key gets it again.
CREATE TABLE ingest_batches (
  company_id      bigint NOT NULL REFERENCES companies (id),
  id              bigserial NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('network', 'endpoint', 'mail')),
  idempotency_key text,
  token_id        bigint,
  accepted        integer NOT NULL DEFAULT 0,
  rejected        jsonb NOT NULL DEFAULT '[]'::jsonb,
  received_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, id)
);
CREATE UNIQUE INDEX ingest_batches_idempotency ON ingest_batches (company_id, kind, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX ingest_batches_received ON ingest_batches (received_at);

-- ---------------------------------------------------------------------------------------------
-- Network: Suricata EVE
-- ---------------------------------------------------------------------------------------------
CREATE SEQUENCE network_events_id_seq AS bigint;
CREATE TABLE network_events (
  company_id    bigint NOT NULL,
  ts            timestamptz NOT NULL,
  id            bigint NOT NULL DEFAULT nextval('network_events_id_seq'),
  batch_id      bigint NOT NULL,
  event_type    text NOT NULL,
  src_ip        inet,
  src_port      integer,
  dest_ip       inet,
  dest_port     integer,
  proto         text,
  app_proto     text,
  flow_id       text,
  community_id  text,
  sensor        text,
  severity      text,
  signature_id  bigint,
  signature     text,
  category      text,
  dns_rrname    text,
  http_hostname text,
  http_url      text,
  tls_sni       text,
  file_sha256   text,
  -- The normalised event without `raw` (its groups: alert, dns, http, tls, fileinfo, flow, anomaly).
  event         jsonb NOT NULL,
  raw           jsonb NOT NULL,
  PRIMARY KEY (company_id, ts, id)
) PARTITION BY RANGE (ts);
CREATE TABLE network_events_default PARTITION OF network_events DEFAULT;
CREATE INDEX network_events_list ON network_events (company_id, ts DESC, id DESC);
CREATE INDEX network_events_id ON network_events (id);
CREATE INDEX network_events_type ON network_events (company_id, event_type, ts DESC);
CREATE INDEX network_events_src ON network_events (company_id, src_ip, ts DESC);
CREATE INDEX network_events_dest ON network_events (company_id, dest_ip, ts DESC);
CREATE INDEX network_events_signature ON network_events (company_id, signature_id, ts DESC)
  WHERE signature_id IS NOT NULL;

-- ---------------------------------------------------------------------------------------------
-- Endpoint: ECS-like JSON and EVTX-as-JSON (`eclipse_events`)
-- ---------------------------------------------------------------------------------------------
CREATE SEQUENCE endpoint_events_id_seq AS bigint;
CREATE TABLE endpoint_events (
  company_id    bigint NOT NULL,
  ts            timestamptz NOT NULL,
  id            bigint NOT NULL DEFAULT nextval('endpoint_events_id_seq'),
  batch_id      bigint NOT NULL,
  source_format text NOT NULL,
  host_name     text,
  action        text,
  event_code    text,
  outcome       text,
  process_name  text,
  process_pid   bigint,
  command_line  text,
  parent_name   text,
  process_sha256 text,
  user_name     text,
  file_path     text,
  file_sha256   text,
  src_ip        inet,
  dest_ip       inet,
  dest_port     integer,
  registry_path text,
  dns_question  text,
  event         jsonb NOT NULL,
  raw           jsonb NOT NULL,
  PRIMARY KEY (company_id, ts, id)
) PARTITION BY RANGE (ts);
CREATE TABLE endpoint_events_default PARTITION OF endpoint_events DEFAULT;
CREATE INDEX endpoint_events_list ON endpoint_events (company_id, ts DESC, id DESC);
CREATE INDEX endpoint_events_id ON endpoint_events (id);
CREATE INDEX endpoint_events_host ON endpoint_events (company_id, host_name, ts DESC);
CREATE INDEX endpoint_events_action ON endpoint_events (company_id, action, ts DESC);
CREATE INDEX endpoint_events_process ON endpoint_events (company_id, process_name, ts DESC);
CREATE INDEX endpoint_events_user ON endpoint_events (company_id, user_name, ts DESC);

-- ---------------------------------------------------------------------------------------------
-- Mail (`mailing`) and its attachments (`attaches`); ts is when Vigil received the message.
-- ---------------------------------------------------------------------------------------------
CREATE SEQUENCE mail_messages_id_seq AS bigint;
CREATE TABLE mail_messages (
  company_id       bigint NOT NULL,
  ts               timestamptz NOT NULL,
  id               bigint NOT NULL DEFAULT nextval('mail_messages_id_seq'),
  batch_id         bigint NOT NULL,
  message_id       text,
  sent_at          timestamptz,
  sender           text,
  sender_name      text,
  recipients       text[] NOT NULL DEFAULT '{}',
  subject          text,
  spf              text,
  dkim             text,
  dmarc            text,
  urls             text[] NOT NULL DEFAULT '{}',
  attachment_count integer NOT NULL DEFAULT 0,
  size             bigint NOT NULL DEFAULT 0,
  -- The normalised message (bodies, headers, addresses) without attachment bytes.
  event            jsonb NOT NULL,
  PRIMARY KEY (company_id, ts, id)
) PARTITION BY RANGE (ts);
CREATE TABLE mail_messages_default PARTITION OF mail_messages DEFAULT;
CREATE INDEX mail_messages_list ON mail_messages (company_id, ts DESC, id DESC);
CREATE INDEX mail_messages_id ON mail_messages (id);
CREATE INDEX mail_messages_sender ON mail_messages (company_id, sender, ts DESC);

CREATE SEQUENCE mail_attachments_id_seq AS bigint;
CREATE TABLE mail_attachments (
  company_id    bigint NOT NULL,
  ts            timestamptz NOT NULL,
  id            bigint NOT NULL DEFAULT nextval('mail_attachments_id_seq'),
  mail_id       bigint NOT NULL,
  filename      text,
  content_type  text NOT NULL,
  size          bigint NOT NULL,
  md5           text NOT NULL,
  sha1          text NOT NULL,
  sha256        text NOT NULL,
  detected_type text NOT NULL,
  inline        boolean NOT NULL DEFAULT false,
  PRIMARY KEY (company_id, ts, id)
) PARTITION BY RANGE (ts);
CREATE TABLE mail_attachments_default PARTITION OF mail_attachments DEFAULT;
CREATE INDEX mail_attachments_list ON mail_attachments (company_id, ts DESC, id DESC);
CREATE INDEX mail_attachments_id ON mail_attachments (id);
CREATE INDEX mail_attachments_mail ON mail_attachments (company_id, mail_id);
CREATE INDEX mail_attachments_sha256 ON mail_attachments (company_id, sha256);

-- ---------------------------------------------------------------------------------------------
-- Warehouse: file contents stored once, whoever sent them (not tenant data by itself: a file is
-- visible to a company only through its sightings in warehouse_hashes).
-- ---------------------------------------------------------------------------------------------
CREATE TABLE warehouse_files (
  id            bigserial PRIMARY KEY,
  sha256        text NOT NULL UNIQUE,
  md5           text NOT NULL,
  sha1          text NOT NULL,
  size          bigint NOT NULL,
  detected_type text NOT NULL,
  content       bytea NOT NULL,
  first_seen    timestamptz NOT NULL DEFAULT now(),
  last_seen     timestamptz NOT NULL DEFAULT now()
);

-- Which company saw which hash, where and how often.
CREATE TABLE warehouse_hashes (
  company_id      bigint NOT NULL REFERENCES companies (id),
  sha256          text NOT NULL,
  id              bigserial NOT NULL,
  md5             text,
  sha1            text,
  filename        text,
  sources         text[] NOT NULL DEFAULT '{}',
  sightings       bigint NOT NULL DEFAULT 0,
  last_event_kind text,
  last_event_id   bigint,
  first_seen      timestamptz NOT NULL DEFAULT now(),
  last_seen       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, sha256)
);
CREATE UNIQUE INDEX warehouse_hashes_id_key ON warehouse_hashes (id);
CREATE INDEX warehouse_hashes_list ON warehouse_hashes (company_id, last_seen DESC, id DESC);

-- ---------------------------------------------------------------------------------------------
-- Monthly partitions on demand. A month whose rows already went to the DEFAULT partition (it
-- did not exist yet) gets them moved over before it is attached, so making a partition late
-- never fails.
-- ---------------------------------------------------------------------------------------------
CREATE FUNCTION vigil_ensure_month_partition(parent text, month_start timestamptz) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  lower_bound timestamptz := date_trunc('month', month_start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  upper_bound timestamptz := ((date_trunc('month', month_start AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC');
  child text := parent || '_p' || to_char(month_start AT TIME ZONE 'UTC', 'YYYYMM');
BEGIN
  IF parent NOT IN ('network_events', 'endpoint_events', 'mail_messages', 'mail_attachments') THEN
    RAISE EXCEPTION 'not an event table: %', parent;
  END IF;
  IF to_regclass(child) IS NOT NULL THEN
    RETURN child;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext(child));
  IF to_regclass(child) IS NOT NULL THEN
    RETURN child;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', child, parent);
  EXECUTE format(
    'WITH moved AS (DELETE FROM %I WHERE ts >= %L AND ts < %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
    parent || '_default', lower_bound, upper_bound, child);
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
    parent, child, lower_bound, upper_bound);
  RETURN child;
END
$$;
