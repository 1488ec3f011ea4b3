import type { AlertFilters } from '@vigil/contract';

type QueryValue = string | number | boolean | readonly (string | number)[] | undefined | null;

/** `path?key=value…` with the API's snake_case filter names; arrays repeat the key, empty values are left out. */
export function withQuery(path: string, query: object): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query) as [string, QueryValue][]) {
    if (value === undefined || value === null || value === '') continue;
    const values: readonly (string | number | boolean)[] = Array.isArray(value) ? value : [value as string];
    for (const item of values) params.append(key, String(item));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

interface TimeWindow {
  ts_from?: string;
  ts_to?: string;
}

/** Network events where an address (either side), a source or a destination appears. */
export const networkEventsUrl = (
  query: { ip?: string; src_ip?: string; dest_ip?: string; search?: string } & TimeWindow,
) => withQuery('/investigation/network', query);

/** Endpoint events of a host, with a search or a file/process hash. */
export const endpointEventsUrl = (
  query: { host_name?: string; search?: string; hash?: string; user_name?: string } & TimeWindow,
) => withQuery('/investigation/endpoint-events', query);

export const mailUrl = (query: { search?: string }) => withQuery('/investigation/emails', query);
export const mailMessageUrl = (id: number) => `/investigation/emails/${id}`;

/** Files (warehouse) by hash. */
export const filesUrl = (query: { sha256?: string; search?: string }) => withQuery('/investigation/files', query);

export const alertsUrl = (filters: AlertFilters) => withQuery('/alerts', filters);
export const alertUrl = (id: number) => `/alerts/${id}`;

export const incidentsUrl = (filters: Record<string, QueryValue>) => withQuery('/incidents', filters);
export const incidentUrl = (id: number) => `/incidents/${id}`;

/** The investigation graph of an alert or an incident. */
export const graphUrl = (of: { alert: number } | { incident: number }) => withQuery('/graph', of);

/** The kinds of observable that lead to the same place, each with where one of them leads. */
const observablePivots: readonly [kinds: readonly string[], pivot: (value: string) => string][] = [
  [['ip', 'src_ip', 'dest_ip', 'ipv4', 'ipv6'], (ip) => networkEventsUrl({ ip })],
  [['domain', 'hostname', 'url'], (search) => networkEventsUrl({ search })],
  [['host', 'host_name'], (host_name) => endpointEventsUrl({ host_name })],
  [['user', 'user_name'], (user_name) => endpointEventsUrl({ user_name })],
  [['sha256'], (sha256) => filesUrl({ sha256 })],
  [['md5', 'sha1', 'hash'], (hash) => endpointEventsUrl({ hash })],
  [['email', 'sender'], (search) => mailUrl({ search })],
];

/** Where an observable leads: IPs to network events, hosts to endpoint events, hashes to files… */
export function observablePivot(kind: string, value: string): string | null {
  const pivot = observablePivots.find(([kinds]) => kinds.includes(kind))?.[1];
  return pivot ? pivot(value) : null;
}
