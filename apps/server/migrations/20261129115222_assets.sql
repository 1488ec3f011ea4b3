-- assets
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
-- Assets of a company, the addresses they held over time, the splits discovery must keep apart,
-- and each company's internal networks. Written by the assets module.

CREATE TABLE assets (
  id                bigserial PRIMARY KEY,
  company_id        bigint NOT NULL REFERENCES companies (id),
  name              text NOT NULL,
  kind              text NOT NULL DEFAULT 'other'
                    CHECK (kind IN ('workstation', 'server', 'network_device', 'mobile', 'other')),
  os_name           text NOT NULL DEFAULT '',
  os_version        text NOT NULL DEFAULT '',
  ips               inet[] NOT NULL DEFAULT '{}',
  macs              text[] NOT NULL DEFAULT '{}',
  fqdn              text NOT NULL DEFAULT '',
  -- An employee's id. No foreign key: employees are a kind of their own, added beside this one.
  owner_employee_id bigint,
  unit_id           bigint REFERENCES units (id) ON DELETE SET NULL,
  criticality       text NOT NULL DEFAULT 'medium' CHECK (criticality IN ('low', 'medium', 'high', 'critical')),
  tags              text[] NOT NULL DEFAULT '{}',
  first_seen        timestamptz,
  last_seen         timestamptz,
  sources           text[] NOT NULL DEFAULT '{}',
  agent_id          text NOT NULL DEFAULT '',
  notes             text NOT NULL DEFAULT '',
  archived_at       timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  -- The short host name discovery matches on: the name's first label, lower case; none for a name
  -- that is an address (assets found from flows are named by their address).
  name_key          text GENERATED ALWAYS AS (
                      CASE WHEN name ~ '^[0-9.]+$' OR position(':' IN name) > 0 THEN NULL
                           ELSE lower(split_part(name, '.', 1)) END) STORED
);
CREATE INDEX assets_company_name ON assets (company_id, lower(name), id);
CREATE INDEX assets_company_last_seen ON assets (company_id, last_seen DESC, id DESC);
CREATE INDEX assets_company_name_key ON assets (company_id, name_key) WHERE name_key IS NOT NULL;
CREATE INDEX assets_company_agent ON assets (company_id, agent_id) WHERE agent_id <> '';
CREATE INDEX assets_ips ON assets USING gin (ips);
CREATE INDEX assets_macs ON assets USING gin (macs);
CREATE INDEX assets_tags ON assets USING gin (tags);

-- Which asset held which address when. One row per asset, address and source: a sighting moves
-- last_seen on (and first_seen back).
CREATE TABLE asset_ip_hosts (
  id         bigserial PRIMARY KEY,
  company_id bigint NOT NULL REFERENCES companies (id),
  asset_id   bigint NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
  ip         inet NOT NULL,
  mac        text,
  first_seen timestamptz NOT NULL,
  last_seen  timestamptz NOT NULL,
  source     text NOT NULL CHECK (source IN ('dhcp', 'endpoint', 'dns', 'flow', 'static', 'manual'))
);
CREATE UNIQUE INDEX asset_ip_hosts_key ON asset_ip_hosts (company_id, asset_id, ip, source);
-- resolve: the claims on one address of one company, latest first.
CREATE INDEX asset_ip_hosts_resolve ON asset_ip_hosts (company_id, ip, first_seen DESC);
CREATE INDEX asset_ip_hosts_company_last_seen ON asset_ip_hosts (company_id, last_seen DESC, id DESC);
CREATE INDEX asset_ip_hosts_asset ON asset_ip_hosts (asset_id);

-- What a split took out of an asset: discovery keeps these on the asset named, never another.
CREATE TABLE asset_split_pins (
  company_id bigint NOT NULL REFERENCES companies (id),
  kind       text NOT NULL CHECK (kind IN ('ip', 'mac', 'source')),
  value      text NOT NULL,
  asset_id   bigint NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, kind, value)
);
CREATE INDEX asset_split_pins_asset ON asset_split_pins (asset_id);

-- A company's internal address ranges.
CREATE TABLE company_networks (
  company_id bigint NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  cidr       cidr NOT NULL,
  PRIMARY KEY (company_id, cidr)
);
