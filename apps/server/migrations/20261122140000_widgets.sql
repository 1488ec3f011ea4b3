-- widgets
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.

-- Dashboard widgets, each user's own. company_id (the user's company) leads the key like every
-- tenant table; the dashboard reads one user's widgets in order.
CREATE TABLE widgets (
  company_id  bigint NOT NULL REFERENCES companies (id),
  id          bigserial,
  user_id     bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind        text NOT NULL,
  size        text NOT NULL CHECK (size IN ('third', 'half', 'full')),
  position    integer NOT NULL,
  settings    jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, id)
);
CREATE UNIQUE INDEX widgets_id_key ON widgets (id);
CREATE INDEX widgets_user_idx ON widgets (user_id, position, id);

-- Users whose dashboard has been set up: the default widgets are made once, on the first read, so
-- a user who removes every widget keeps an empty dashboard.
CREATE TABLE dashboards (
  user_id     bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- When an alert left `new` (acknowledged) and when it was resolved or closed, for the time to
-- acknowledge and time to resolve. A trigger keeps them for every writer (triage, bulk actions,
-- matchers): acknowledged_at is kept from the first time, resolved_at follows the last resolution
-- and is cleared when the alert is opened again.
ALTER TABLE alerts ADD COLUMN acknowledged_at timestamptz;
ALTER TABLE alerts ADD COLUMN resolved_at timestamptz;

-- Alerts triaged before these columns existed: their last change is the best moment known.
UPDATE alerts SET acknowledged_at = updated_at WHERE status <> 'new';
UPDATE alerts SET resolved_at = updated_at WHERE status IN ('resolved', 'closed');

CREATE FUNCTION vigil_alert_status_moments() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status <> 'new' AND NEW.acknowledged_at IS NULL THEN
    NEW.acknowledged_at := now();
  END IF;
  IF NEW.status IN ('resolved', 'closed') THEN
    -- Resolved then closed (or the other way) is still the first resolution.
    IF TG_OP = 'INSERT' THEN
      NEW.resolved_at := COALESCE(NEW.resolved_at, now());
    ELSIF OLD.status NOT IN ('resolved', 'closed') THEN
      NEW.resolved_at := now();
    END IF;
  ELSE
    NEW.resolved_at := NULL;
  END IF;
  RETURN NEW;
END
$$;

-- Only rows whose status changes call the function, so other updates (deduplication) pay nothing.
CREATE TRIGGER alerts_status_moments_update BEFORE UPDATE OF status ON alerts
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION vigil_alert_status_moments();
CREATE TRIGGER alerts_status_moments_insert BEFORE INSERT ON alerts
  FOR EACH ROW WHEN (NEW.status <> 'new') EXECUTE FUNCTION vigil_alert_status_moments();

-- Time to acknowledge/resolve over a period reads alerts by first_seen.
CREATE INDEX alerts_first_seen_idx ON alerts (company_id, first_seen);
