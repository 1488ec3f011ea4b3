-- network protocol fields sensor health
-- Runs on PostgreSQL 15 and on embedded PGlite: keep to SQL both accept.

-- Fields of the EVE application-layer groups (fileinfo, tls, ssh, dhcp, smtp) that the network
-- list filters by. The normalised event (`event`) holds them all; these copies let a filter compare
-- a column instead of reading JSON. Nullable columns without a default: adding them rewrites nothing.
ALTER TABLE network_events
  ADD COLUMN file_stored boolean,
  -- certificateSerialKey: lower-case hex without separators.
  ADD COLUMN tls_serial text,
  ADD COLUMN ssh_client_software text,
  ADD COLUMN ssh_server_software text,
  ADD COLUMN dhcp_mac text,
  ADD COLUMN dhcp_hostname text,
  ADD COLUMN dhcp_assigned_ip inet,
  ADD COLUMN smtp_mail_from text,
  ADD COLUMN smtp_rcpt_to text[];
-- Exact lookups of a device or a certificate; only the rows that have one are indexed.
CREATE INDEX network_events_dhcp_mac ON network_events (company_id, dhcp_mac, ts DESC)
  WHERE dhcp_mac IS NOT NULL;
CREATE INDEX network_events_tls_serial ON network_events (company_id, tls_serial, ts DESC)
  WHERE tls_serial IS NOT NULL;

-- The latest health of each sensor, from its EVE `stats` records (which are not events): the
-- counters an operator reads first, and the whole stats object. One row per company and sensor,
-- replaced by a newer report, never by an older one.
CREATE TABLE sensor_health (
  company_id                   bigint NOT NULL REFERENCES companies (id),
  -- The EVE `host` of the record; the ingest key's name when the record has none.
  sensor                       text NOT NULL,
  -- The time the sensor wrote the record, and when it arrived.
  reported_at                  timestamptz NOT NULL,
  received_at                  timestamptz NOT NULL DEFAULT now(),
  token_id                     bigint,
  uptime                       bigint,
  capture_kernel_packets       bigint,
  capture_kernel_drops         bigint,
  capture_errors               bigint,
  decoder_pkts                 bigint,
  decoder_bytes                bigint,
  decoder_invalid              bigint,
  flows                        bigint,
  tcp_sessions                 bigint,
  tcp_reassembly_gaps          bigint,
  detect_alerts                bigint,
  detect_alert_queue_overflows bigint,
  rules_loaded                 bigint,
  rules_failed                 bigint,
  app_layer_errors             bigint,
  stats                        jsonb NOT NULL,
  PRIMARY KEY (company_id, sensor)
);

-- Stats records stored as network events before: the latest of each sensor becomes its health,
-- read the way the ingest parser reads it (eve-stats.ts), then they leave the event table.
CREATE FUNCTION vigil_stats_counter(stats jsonb, path text[]) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(stats #> path) = 'number'
               AND (stats #>> path)::numeric >= 0 AND (stats #>> path)::numeric < 9223372036854775807
              THEN trunc((stats #>> path)::numeric)::bigint END
$$;

INSERT INTO sensor_health (company_id, sensor, reported_at, token_id, uptime, capture_kernel_packets,
  capture_kernel_drops, capture_errors, decoder_pkts, decoder_bytes, decoder_invalid, flows, tcp_sessions,
  tcp_reassembly_gaps, detect_alerts, detect_alert_queue_overflows, rules_loaded, rules_failed,
  app_layer_errors, stats)
SELECT DISTINCT ON (r.company_id, r.sensor)
  r.company_id, r.sensor, r.ts, r.token_id,
  vigil_stats_counter(r.s, '{uptime}'),
  vigil_stats_counter(r.s, '{capture,kernel_packets}'),
  vigil_stats_counter(r.s, '{capture,kernel_drops}'),
  vigil_stats_counter(r.s, '{capture,errors}'),
  vigil_stats_counter(r.s, '{decoder,pkts}'),
  vigil_stats_counter(r.s, '{decoder,bytes}'),
  vigil_stats_counter(r.s, '{decoder,invalid}'),
  coalesce(vigil_stats_counter(r.s, '{flow,total}'),
    CASE WHEN coalesce(vigil_stats_counter(r.s, '{flow,tcp}'), vigil_stats_counter(r.s, '{flow,udp}'),
                       vigil_stats_counter(r.s, '{flow,icmpv4}'), vigil_stats_counter(r.s, '{flow,icmpv6}')) IS NOT NULL
         THEN coalesce(vigil_stats_counter(r.s, '{flow,tcp}'), 0) + coalesce(vigil_stats_counter(r.s, '{flow,udp}'), 0)
            + coalesce(vigil_stats_counter(r.s, '{flow,icmpv4}'), 0) + coalesce(vigil_stats_counter(r.s, '{flow,icmpv6}'), 0)
    END),
  vigil_stats_counter(r.s, '{tcp,sessions}'),
  vigil_stats_counter(r.s, '{tcp,reassembly_gap}'),
  vigil_stats_counter(r.s, '{detect,alert}'),
  vigil_stats_counter(r.s, '{detect,alert_queue_overflow}'),
  (SELECT sum(vigil_stats_counter(engine, '{rules_loaded}'))::bigint
     FROM jsonb_array_elements(CASE WHEN jsonb_typeof(r.s #> '{detect,engines}') = 'array'
                                    THEN r.s #> '{detect,engines}' END) AS engine),
  (SELECT sum(vigil_stats_counter(engine, '{rules_failed}'))::bigint
     FROM jsonb_array_elements(CASE WHEN jsonb_typeof(r.s #> '{detect,engines}') = 'array'
                                    THEN r.s #> '{detect,engines}' END) AS engine),
  CASE WHEN jsonb_typeof(r.s #> '{app_layer,error}') = 'object' THEN coalesce(
    (SELECT sum(vigil_stats_counter(errors.kinds, ARRAY[kind]))::bigint
       FROM jsonb_each(r.s #> '{app_layer,error}') AS errors(protocol, kinds),
            unnest(ARRAY['gap', 'alloc', 'parser', 'internal']) AS kind
      WHERE jsonb_typeof(errors.kinds) = 'object'), 0) END,
  r.s
FROM (
  SELECT e.company_id, e.ts, e.id, b.token_id, coalesce(e.sensor, t.name, '') AS sensor, e.raw::jsonb -> 'stats' AS s
    FROM network_events e
    LEFT JOIN ingest_batches b ON b.company_id = e.company_id AND b.id = e.batch_id
    LEFT JOIN ingest_tokens t ON t.company_id = b.company_id AND t.id = b.token_id
   WHERE e.event_type = 'stats'
) r
WHERE jsonb_typeof(r.s) = 'object'
ORDER BY r.company_id, r.sensor, r.ts DESC, r.id DESC;

DROP FUNCTION vigil_stats_counter(jsonb, text[]);

DELETE FROM network_events WHERE event_type = 'stats';
