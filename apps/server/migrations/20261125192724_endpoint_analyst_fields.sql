-- endpoint analyst fields
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
-- Columns of what analysts filter endpoint events by, filled by ingest from the normalised event:
-- the process acted upon (Sysmon 8, 10; Security object events on a process) and the access it was
-- granted, the PE OriginalFileName (of the process, else of the loaded file), the process's
-- integrity level and the acting account's logon session. Nullable, no default: adding them is a
-- change of the catalogue only, on every partition. Rows stored before keep them empty.
ALTER TABLE endpoint_events
  ADD COLUMN target_process_name text,
  ADD COLUMN granted_access text,
  ADD COLUMN original_file_name text,
  ADD COLUMN integrity_level text,
  ADD COLUMN logon_id text;
