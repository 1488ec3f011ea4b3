-- software
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
-- The software catalogue of a company: products by a normalised vendor and name.
CREATE TABLE software_products (
  id          bigserial PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies (id),
  vendor      text NOT NULL DEFAULT '',
  name        text NOT NULL,
  -- lower-case vendor and name with spaces collapsed, joined by a tab: one product however written.
  product_key text NOT NULL,
  -- When the product was first seen anywhere in the company's estate.
  first_seen  timestamptz NOT NULL,
  last_seen   timestamptz NOT NULL,
  UNIQUE (company_id, product_key)
);
CREATE INDEX software_products_name ON software_products (company_id, lower(name), id);
CREATE INDEX software_products_first_seen ON software_products (company_id, first_seen DESC, id DESC);

CREATE TABLE software_versions (
  id          bigserial PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies (id),
  product_id  bigint NOT NULL REFERENCES software_products (id) ON DELETE CASCADE,
  version     text NOT NULL,
  first_seen  timestamptz NOT NULL,
  last_seen   timestamptz NOT NULL,
  UNIQUE (company_id, product_id, version)
);
CREATE INDEX software_versions_product ON software_versions (product_id, version);

-- Which host runs which version since when. `asset_id` names an asset without a foreign key: the
-- assets table is kept by the assets module, which resolves `host_name` to it.
CREATE TABLE software_installs (
  id          bigserial PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies (id),
  product_id  bigint NOT NULL REFERENCES software_products (id) ON DELETE CASCADE,
  version_id  bigint NOT NULL REFERENCES software_versions (id) ON DELETE CASCADE,
  asset_id    bigint,
  host_name   text NOT NULL,
  host_key    text NOT NULL,
  first_seen  timestamptz NOT NULL,
  last_seen   timestamptz NOT NULL,
  -- Set when an inventory said the package went (osquery `removed`); an install seen again clears it.
  removed_at  timestamptz,
  -- What reported it last: ecs, osquery programs / deb_packages / rpm_packages / apps, process.
  source      text NOT NULL,
  UNIQUE (company_id, version_id, host_key)
);
CREATE INDEX software_installs_version ON software_installs (version_id, host_key) WHERE removed_at IS NULL;
CREATE INDEX software_installs_product ON software_installs (product_id) WHERE removed_at IS NULL;
CREATE INDEX software_installs_host ON software_installs (company_id, host_key);
CREATE INDEX software_installs_asset ON software_installs (asset_id) WHERE asset_id IS NOT NULL;

