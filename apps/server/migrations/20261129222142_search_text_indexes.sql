-- search text indexes
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.
-- Search's free text and its wildcards on the text fields of endpoint and network events read a
-- trigram index over the fields free text covers, joined by spaces: `expr ILIKE '%word%'` finds the
-- few rows holding the word among tens of millions, and the condition on the field itself is then
-- checked on those rows only (apps/server/src/modules/search/search-sql.ts, searchTextOf). The
-- expression must stay exactly as written there, or the planner does not use the index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX endpoint_events_search_text ON endpoint_events USING gin ((
  coalesce(host_name, '') || ' ' || coalesce(process_name, '') || ' ' || coalesce(command_line, '') || ' ' ||
  coalesce(user_name, '') || ' ' || coalesce(file_path, '')
) gin_trgm_ops);

CREATE INDEX network_events_search_text ON network_events USING gin ((
  coalesce(signature, '') || ' ' || coalesce(http_hostname, '') || ' ' || coalesce(dns_rrname, '') || ' ' ||
  coalesce(tls_sni, '') || ' ' || coalesce(http_url, '')
) gin_trgm_ops);

-- A field's value in search compares without letter case (`process_name: MIMIKATZ.EXE` finds
-- mimikatz.exe): the endpoint fields analysts name most are indexed by their lower-case form. The
-- exact-value readers (lists, investigation, graph) test both forms, so the same index serves them.
DROP INDEX endpoint_events_host;
DROP INDEX endpoint_events_process;
DROP INDEX endpoint_events_user;
CREATE INDEX endpoint_events_host ON endpoint_events (company_id, lower(host_name), ts DESC);
CREATE INDEX endpoint_events_process ON endpoint_events (company_id, lower(process_name), ts DESC);
CREATE INDEX endpoint_events_user ON endpoint_events (company_id, lower(user_name), ts DESC);
