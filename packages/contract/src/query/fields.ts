/**
 * What each kind of data can be searched by: its fields with their types, and the fields free text
 * (a word with no field) is looked for in. Shared by the server (which maps each field to its column)
 * and the console (autocomplete, and problems shown before the query is sent).
 */

/** The kinds of data a search reads. */
export const searchKinds = ['network', 'endpoint', 'mail', 'alerts'] as const;
export type SearchKind = (typeof searchKinds)[number];

/**
 * How a field's values compare:
 * - `keyword`: a whole value (a host, a process name, a hash), equal whatever the case; wildcards match patterns;
 * - `text`: longer text (a command line, a subject); a value matches when it is contained, whatever the case;
 * - `ip`: an address; a value may be an address or a CIDR block, and addresses compare and range;
 * - `number`, `time`: compare and range; times are ISO 8601 (`2026-11-29`, `2026-11-29T10:00:00Z`) or
 *   relative to now (`now-15m`, `now-24h`, `now-7d`);
 * - `boolean`: `true` or `false`.
 */
export type SearchFieldType = 'keyword' | 'text' | 'ip' | 'number' | 'time' | 'boolean';

/**
 * The field types whose values the query box suggests from the data (`POST /api/search/values/`):
 * whole values, few enough to count. Text, numbers and times are not suggested.
 */
export const suggestedValueTypes: readonly SearchFieldType[] = ['keyword', 'ip', 'boolean'];

export interface SearchField {
  type: SearchFieldType;
  /** The field holds several values (recipients, tags); it matches when any of them does. */
  many?: boolean;
}

const keyword: SearchField = { type: 'keyword' };
const keywords: SearchField = { type: 'keyword', many: true };
const text: SearchField = { type: 'text' };
const ip: SearchField = { type: 'ip' };
const number: SearchField = { type: 'number' };
const time: SearchField = { type: 'time' };
const boolean: SearchField = { type: 'boolean' };

/** Every kind's fields, by the names the console shows (the event's columns). */
export const searchFields = {
  network: {
    ts: time,
    event_type: keyword,
    src_ip: ip,
    src_port: number,
    dest_ip: ip,
    dest_port: number,
    /** Either side's address. */
    ip,
    proto: keyword,
    app_proto: keyword,
    flow_id: keyword,
    community_id: keyword,
    sensor: keyword,
    severity: keyword,
    signature_id: number,
    signature: text,
    category: text,
    dns_rrname: keyword,
    http_hostname: keyword,
    http_url: text,
    tls_sni: keyword,
    tls_serial: keyword,
    file_sha256: keyword,
    file_stored: boolean,
    ssh_client_software: text,
    ssh_server_software: text,
    dhcp_mac: keyword,
    dhcp_hostname: keyword,
    dhcp_assigned_ip: ip,
    smtp_mail_from: keyword,
    smtp_rcpt_to: keywords,
  },
  endpoint: {
    ts: time,
    source_format: keyword,
    host_name: keyword,
    action: keyword,
    event_code: keyword,
    outcome: keyword,
    process_name: keyword,
    process_pid: number,
    command_line: text,
    parent_name: keyword,
    process_sha256: keyword,
    user_name: keyword,
    file_path: keyword,
    file_sha256: keyword,
    src_ip: ip,
    dest_ip: ip,
    dest_port: number,
    registry_path: keyword,
    dns_question: keyword,
    target_process_name: keyword,
    granted_access: keyword,
    original_file_name: keyword,
    integrity_level: keyword,
    logon_id: keyword,
  },
  mail: {
    ts: time,
    message_id: keyword,
    sent_at: time,
    sender: keyword,
    sender_name: text,
    recipient: keywords,
    subject: text,
    spf: keyword,
    dkim: keyword,
    dmarc: keyword,
    url: keywords,
    attachment_count: number,
    size: number,
    original_sha256: keyword,
  },
  alerts: {
    /** When the alert was first raised (the time range applies to it). */
    ts: time,
    last_seen: time,
    title: text,
    description: text,
    severity: keyword,
    score: number,
    status: keyword,
    resolution: keyword,
    source: keyword,
    count: number,
    mitre: keywords,
    tags: keywords,
    incident_id: number,
    assignee_id: number,
  },
} as const satisfies Record<SearchKind, Record<string, SearchField>>;

/** The fields a word with no field is looked for in, per kind (contained, whatever the case). */
export const freeTextFields = {
  network: ['signature', 'http_hostname', 'dns_rrname', 'tls_sni', 'http_url'],
  endpoint: ['host_name', 'process_name', 'command_line', 'user_name', 'file_path'],
  mail: ['subject', 'sender', 'recipient'],
  alerts: ['title', 'description'],
} as const satisfies { [K in SearchKind]: readonly (keyof (typeof searchFields)[K])[] };

/**
 * A field as a search over several kinds sees it: present in every one of them with one type, or
 * absent (null) — a query over network and endpoint events may use `src_ip`, not `signature`.
 */
export function fieldFor(kinds: readonly SearchKind[], name: string): SearchField | null {
  let found: SearchField | null = null;
  for (const kind of kinds) {
    const fields: Record<string, SearchField> = searchFields[kind];
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (!field) return null;
    if (found && (found.type !== field.type || Boolean(found.many) !== Boolean(field.many))) return null;
    found = field;
  }
  return found;
}

/** The field names every one of `kinds` has, for autocomplete. */
export function commonFields(kinds: readonly SearchKind[]): string[] {
  if (kinds.length === 0) return [];
  return Object.keys(searchFields[kinds[0]!]).filter((name) => fieldFor(kinds, name) !== null);
}
