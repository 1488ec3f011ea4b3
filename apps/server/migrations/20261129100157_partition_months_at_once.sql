-- Two batches making partitions of two different months of one table at once deadlocked: each
-- moved its month's rows out of the default partition (a row lock on it), then waited to attach
-- its partition (an exclusive lock on the default partition) behind the other. Partitions of one
-- table are now made one at a time: the advisory lock is the table's, not the month's.
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
CREATE OR REPLACE FUNCTION vigil_ensure_month_partition(parent text, month_start timestamptz) RETURNS text
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
  PERFORM pg_advisory_xact_lock(hashtext('vigil_partitions:' || parent));
  -- After the lock, pg_class with a fresh snapshot (the catalog cache is not refreshed by the lock).
  IF EXISTS (SELECT 1 FROM pg_class c WHERE c.relname = child AND c.relnamespace = current_schema()::regnamespace) THEN
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
