import { attackTacticIdPattern, attackTechniqueIdPattern, type NetworkEvent, type Severity } from '@vigil/contract';
import { readBoolean, readDhcp, readSmtp, readSsh, readTcp } from './eve-protocols';
import { readStats } from './eve-stats';
import { type LineParseOptions, type LineResult, parseJsonLine, parseJsonLines, rawTopLevelNumber } from './lines';
import {
  FieldError,
  describe,
  isObject,
  nullIfEmpty,
  readHash,
  readInteger,
  readIp,
  readPort,
  readString,
  readStringList,
  readTimestamp,
  type JsonObject,
} from './values';

/**
 * Suricata's alert severity (the rule's priority, 1 = most severe, 1..255) on our scale.
 *
 * | EVE `alert.severity` | Vigil severity | Suricata's usual source                                   |
 * |----------------------|----------------|-----------------------------------------------------------|
 * | 1                    | high           | classtypes of priority 1 (trojan-activity, attempted-admin…) |
 * | 2                    | medium         | priority 2 (attempted-recon, bad-unknown…)                |
 * | 3                    | low            | priority 3 (not-suspicious, unknown…); also the default   |
 * | 4 and above          | info           | priority 4 (tcp-connection), custom low priorities        |
 * | absent               | low            | Suricata's default priority (3) for a rule without one    |
 *
 * No EVE severity maps to critical: critical is kept for what we know more about (an indicator
 * match or a matcher that raises it).
 */
export function eveSeverity(severity: number | null): Severity {
  if (severity === null) return 'low';
  if (severity <= 1) return 'high';
  if (severity === 2) return 'medium';
  if (severity === 3) return 'low';
  return 'info';
}

const MAX_UINT64 = 18_446_744_073_709_551_615n;

/** Parses Suricata EVE JSON, one object per line. Never throws. */
export function parseEveLines(body: string | Uint8Array, options: LineParseOptions = {}): LineResult<NetworkEvent>[] {
  return parseJsonLines(body, options, normaliseEve);
}

/** Parses one EVE line (without its line break). Never throws. */
export function parseEveLine(text: string, line: number): LineResult<NetworkEvent> {
  return parseJsonLine(text, line, normaliseEve);
}

/** One EVE record → NetworkEvent; throws FieldError for a field it cannot read. */
export function normaliseEve(record: JsonObject, text: string): NetworkEvent {
  const timestamp = readTimestamp(record.timestamp, 'timestamp');
  if (timestamp === null) throw new FieldError('missing timestamp');
  const eventType = readString(record.event_type, 'event_type');
  if (eventType === null) throw new FieldError('missing event_type');
  if (eventType.length > 64) throw new FieldError(`event_type is longer than 64 characters (${describe(eventType)})`);

  const alert = readAlert(record, eventType);
  const flowId = readFlowId(record.flow_id, text);
  // JSON.parse rounded a flow id above 2^53; raw keeps the exact digits, as text.
  if (flowId !== null && typeof record.flow_id === 'number' && !Number.isSafeInteger(record.flow_id)) {
    record.flow_id = flowId;
  }
  return {
    timestamp,
    event_type: eventType,
    src_ip: readIp(record.src_ip, 'src_ip'),
    src_port: readPort(record.src_port, 'src_port'),
    dest_ip: readIp(record.dest_ip, 'dest_ip'),
    dest_port: readPort(record.dest_port, 'dest_port'),
    proto: readString(record.proto, 'proto'),
    app_proto: readString(record.app_proto, 'app_proto'),
    flow_id: flowId,
    community_id: readString(record.community_id, 'community_id'),
    host: readString(record.host, 'host'),
    severity: alert === null ? null : eveSeverity(alert.severity),
    alert,
    dns: readGroup(record, 'dns', readDns),
    http: readGroup(record, 'http', readHttp),
    tls: readGroup(record, 'tls', readTls),
    fileinfo: readGroup(record, 'fileinfo', readFileinfo),
    flow: readGroup(record, 'flow', readFlow),
    anomaly: readGroup(record, 'anomaly', readAnomaly),
    tcp: readGroup(record, 'tcp', readTcp),
    ssh: readGroup(record, 'ssh', readSsh),
    dhcp: readGroup(record, 'dhcp', readDhcp),
    smtp: readSmtp(record),
    stats: eventType === 'stats' ? readStatsRecord(record) : null,
    raw: record,
  };
}

/** The counters of a `stats` record, which must carry its stats object. */
function readStatsRecord(record: JsonObject): NetworkEvent['stats'] {
  const stats = record.stats;
  if (stats === undefined || stats === null) throw new FieldError('a stats record needs a stats object');
  if (!isObject(stats)) throw new FieldError(`stats must be an object, found ${describe(stats)}`);
  return readStats(stats);
}

/** A per-type object, read whenever present (an alert carries the http/tls/dns of its flow too). */
function readGroup<T extends object>(record: JsonObject, key: string, read: (group: JsonObject) => T): T | null {
  const group = record[key];
  if (group === undefined || group === null) return null;
  if (!isObject(group)) throw new FieldError(`${key} must be an object, found ${describe(group)}`);
  return nullIfEmpty(read(group));
}

/** Flow ids are unsigned 64-bit; JSON.parse rounds those above 2^53, so the digits come from the text. */
function readFlowId(value: unknown, text: string): string | null {
  if (value === undefined || value === null) return null;
  let digits: string | null = null;
  if (typeof value === 'number') {
    digits = Number.isSafeInteger(value) ? String(value) : rawTopLevelNumber(text, 'flow_id');
  } else if (typeof value === 'string') digits = value.trim();
  if (digits === null || !/^\d{1,20}$/.test(digits) || BigInt(digits) > MAX_UINT64) {
    throw new FieldError(`flow_id must be a whole number from 0 to 2^64-1, found ${describe(value)}`);
  }
  return digits.replace(/^0+(?=\d)/, '');
}

function readAlert(record: JsonObject, eventType: string): NetworkEvent['alert'] {
  const alert = record.alert;
  if (alert === undefined || alert === null) {
    if (eventType === 'alert') throw new FieldError('an alert record needs an alert object');
    return null;
  }
  if (!isObject(alert)) throw new FieldError(`alert must be an object, found ${describe(alert)}`);
  const signatureId = readInteger(alert.signature_id, 'alert.signature_id');
  if (signatureId === null) throw new FieldError('missing alert.signature_id');
  const metadata = readMetadata(alert.metadata);
  return {
    action: readString(alert.action, 'alert.action'),
    gid: readInteger(alert.gid, 'alert.gid'),
    signature_id: signatureId,
    rev: readInteger(alert.rev, 'alert.rev'),
    signature: readString(alert.signature, 'alert.signature') ?? '',
    category: readString(alert.category, 'alert.category'),
    severity: readInteger(alert.severity, 'alert.severity', { min: 1, max: 255 }),
    mitre_tactic_ids: attackIds(metadata, ['mitre_tactic_id'], attackTacticIdPattern),
    mitre_technique_ids: attackIds(metadata, ['mitre_technique_id', 'mitre_subtechnique_id'], attackTechniqueIdPattern),
    metadata,
  };
}

/** Longest metadata key kept; rules write short ones (`signature_severity`). */
const MAX_METADATA_KEY = 200;

/**
 * The rule's `metadata` keyword as EVE logs it: `{"key": ["value", …]}`. A single value not in a
 * list (as some pipelines write it) is read as a list of one.
 */
function readMetadata(value: unknown): Record<string, string[]> {
  const metadata: Record<string, string[]> = {};
  if (value === undefined || value === null) return metadata;
  if (!isObject(value)) throw new FieldError(`alert.metadata must be an object, found ${describe(value)}`);
  for (const [key, values] of Object.entries(value)) {
    if (key === '__proto__') continue;
    const name = key.slice(0, MAX_METADATA_KEY);
    const list = readStringList(values, `alert.metadata.${name}`);
    if (list.length > 0) metadata[name] = list;
  }
  return metadata;
}

/** ATT&CK ids of the given metadata keys, upper case, each once, in the order the rule gives them. */
function attackIds(metadata: Record<string, string[]>, keys: readonly string[], pattern: RegExp): string[] {
  const ids: string[] = [];
  for (const key of keys) {
    for (const value of metadata[key] ?? []) {
      const id = value.trim().toUpperCase();
      if (pattern.test(id) && !ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}

type Dns = NonNullable<NetworkEvent['dns']>;

function readDns(dns: JsonObject): Dns {
  // EVE v3 (Suricata 8) puts the question in queries[]; v1 and v2 at the top of the object.
  const query = Array.isArray(dns.queries) && isObject(dns.queries[0]) ? dns.queries[0] : dns;
  const answers: Dns['answers'] = [];
  if (Array.isArray(dns.answers)) {
    dns.answers.forEach((answer, i) => {
      if (!isObject(answer)) throw new FieldError(`dns.answers[${i}] must be an object, found ${describe(answer)}`);
      answers.push(readAnswer(answer, `dns.answers[${i}]`));
    });
  } else if (isObject(dns.grouped)) {
    // v2 with grouped answers: {"A": ["192.0.2.1"], "CNAME": ["cdn.example.net"]}.
    for (const [rrtype, values] of Object.entries(dns.grouped)) {
      for (const value of Array.isArray(values) ? values : [values]) {
        const rdata = readString(isObject(value) ? value.rdata : value, `dns.grouped.${rrtype}`);
        answers.push({ rrname: null, rrtype: readString(rrtype, 'dns.grouped'), ttl: null, rdata });
      }
    }
  } else if (dns.rdata !== undefined) {
    // v1: one record per answer.
    answers.push(readAnswer(dns, 'dns'));
  }
  return {
    type: readString(dns.type, 'dns.type'),
    rrname: readString(query.rrname, 'dns.rrname'),
    rrtype: readString(query.rrtype, 'dns.rrtype'),
    rcode: readString(dns.rcode, 'dns.rcode'),
    answers,
  };
}

function readAnswer(answer: JsonObject, field: string): Dns['answers'][number] {
  const rdata = answer.rdata;
  return {
    rrname: readString(answer.rrname, `${field}.rrname`),
    rrtype: readString(answer.rrtype, `${field}.rrtype`),
    ttl: readInteger(answer.ttl, `${field}.ttl`),
    // SOA and SRV answers carry objects; keep them as JSON text.
    rdata: isObject(rdata) ? JSON.stringify(rdata) : readString(rdata, `${field}.rdata`),
  };
}

function readHttp(http: JsonObject): NonNullable<NetworkEvent['http']> {
  return {
    hostname: readString(http.hostname, 'http.hostname'),
    url: readString(http.url, 'http.url'),
    http_method: readString(http.http_method, 'http.http_method'),
    status: readInteger(http.status, 'http.status', { min: 0, max: 999 }),
    http_user_agent: readString(http.http_user_agent, 'http.http_user_agent'),
    http_content_type: readString(http.http_content_type, 'http.http_content_type'),
    length: readInteger(http.length, 'http.length'),
    protocol: readString(http.protocol, 'http.protocol'),
    http_refer: readString(http.http_refer, 'http.http_refer'),
    redirect: readString(http.redirect, 'http.redirect'),
  };
}

/** `ja3` is `{hash, string}` in EVE; some pipelines flatten it to the hash. */
function fingerprintHash(value: unknown, field: string): string | null {
  return readString(isObject(value) ? value.hash : value, field);
}

function readTls(tls: JsonObject): NonNullable<NetworkEvent['tls']> {
  return {
    sni: readString(tls.sni, 'tls.sni'),
    version: readString(tls.version, 'tls.version'),
    subject: readString(tls.subject, 'tls.subject'),
    issuerdn: readString(tls.issuerdn, 'tls.issuerdn'),
    fingerprint: readString(tls.fingerprint, 'tls.fingerprint'),
    ja3: fingerprintHash(tls.ja3, 'tls.ja3.hash'),
    ja3s: fingerprintHash(tls.ja3s, 'tls.ja3s.hash'),
    ja4: fingerprintHash(tls.ja4, 'tls.ja4'),
    serial: readString(tls.serial, 'tls.serial'),
    // Suricata writes the validity without a zone: it is UTC.
    notbefore: readTimestamp(tls.notbefore, 'tls.notbefore'),
    notafter: readTimestamp(tls.notafter, 'tls.notafter'),
  };
}

function readFileinfo(file: JsonObject): NonNullable<NetworkEvent['fileinfo']> {
  return {
    filename: readString(file.filename, 'fileinfo.filename'),
    magic: readString(file.magic, 'fileinfo.magic'),
    size: readInteger(file.size, 'fileinfo.size'),
    md5: readHash(file.md5, 'md5', 'fileinfo.md5'),
    sha1: readHash(file.sha1, 'sha1', 'fileinfo.sha1'),
    sha256: readHash(file.sha256, 'sha256', 'fileinfo.sha256'),
    state: readString(file.state, 'fileinfo.state'),
    stored: readBoolean(file.stored, 'fileinfo.stored'),
    gaps: readBoolean(file.gaps, 'fileinfo.gaps'),
  };
}

function readFlow(flow: JsonObject): NonNullable<NetworkEvent['flow']> {
  return {
    pkts_toserver: readInteger(flow.pkts_toserver, 'flow.pkts_toserver'),
    pkts_toclient: readInteger(flow.pkts_toclient, 'flow.pkts_toclient'),
    bytes_toserver: readInteger(flow.bytes_toserver, 'flow.bytes_toserver'),
    bytes_toclient: readInteger(flow.bytes_toclient, 'flow.bytes_toclient'),
    start: readTimestamp(flow.start, 'flow.start'),
    end: readTimestamp(flow.end, 'flow.end'),
    state: readString(flow.state, 'flow.state'),
    reason: readString(flow.reason, 'flow.reason'),
  };
}

function readAnomaly(anomaly: JsonObject): NonNullable<NetworkEvent['anomaly']> {
  return {
    type: readString(anomaly.type, 'anomaly.type'),
    event: readString(anomaly.event, 'anomaly.event'),
    layer: readString(anomaly.layer, 'anomaly.layer'),
  };
}
