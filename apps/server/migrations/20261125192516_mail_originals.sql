-- mail originals
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
-- The original of each mail message, byte for byte as the sensor sent it, gzip-compressed and kept
-- once per SHA-256 of the original bytes (like warehouse files). A message names its original by
-- that hash; retention deletes an original once no stored message names it, so it lives exactly as
-- long as the mail of the companies that received it.
CREATE TABLE mail_originals (
  sha256      text PRIMARY KEY,
  -- Size of the original (uncompressed) message in bytes.
  size        bigint NOT NULL,
  -- gzip of the original bytes.
  content     bytea NOT NULL,
  first_seen  timestamptz NOT NULL DEFAULT now()
);

-- Messages stored before originals were kept name none.
ALTER TABLE mail_messages ADD COLUMN original_sha256 text;
CREATE INDEX mail_messages_original ON mail_messages (original_sha256);
-- Already gzip: PostgreSQL need not try to compress it again.
ALTER TABLE mail_originals ALTER COLUMN content SET STORAGE EXTERNAL;
