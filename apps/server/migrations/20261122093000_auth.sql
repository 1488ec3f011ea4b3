-- auth: public session ids and the way back from impersonation.
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.

-- The session's primary key is the SHA-256 of its cookie token; it never leaves the server.
-- Lists and "end this session" use this opaque id instead.
ALTER TABLE sessions
  ADD COLUMN public_id uuid NOT NULL DEFAULT gen_random_uuid(),
  -- For an impersonation session: the administrator's own session, resumed when it ends.
  ADD COLUMN parent_session_id text;
CREATE UNIQUE INDEX sessions_public_id_key ON sessions (public_id);
