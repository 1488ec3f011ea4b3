-- auth epoch
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
-- The revocation epoch: every change that may revoke a session, a token, an ingest key, a role or a
-- permission moves it on (nextval) before its answer leaves; every server process reads it before
-- using what it remembers of a credential, and forgets everything when it has moved. So a revocation
-- made through one process holds in all of them from the moment it is answered.
CREATE SEQUENCE auth_epoch;
