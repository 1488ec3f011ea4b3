-- Sightings of file hashes are queued by the batch that saw them and folded into warehouse_hashes
-- by one writer at a time. A batch then only appends rows: batches that sight the same hot hash
-- (svchost.exe on every host) no longer wait on each other's row locks until commit.
CREATE TABLE warehouse_sightings_queue (
  id          bigserial PRIMARY KEY,
  company_id  bigint NOT NULL,
  sha256      text NOT NULL,
  md5         text,
  sha1        text,
  filename    text,
  event_kind  text NOT NULL,
  event_id    bigint NOT NULL,
  sightings   bigint NOT NULL,
  first_seen  timestamptz NOT NULL,
  last_seen   timestamptz NOT NULL
);
