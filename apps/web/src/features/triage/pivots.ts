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

/** Where an observable leads: IPs to network events, hosts to endpoint events, hashes to files… */
export function observablePivot(kind: string, value: string): string | null {
  switch (kind) {
    case 'ip':
    case 'src_ip':
    case 'dest_ip':
    case 'ipv4':
    case 'ipv6':
      return networkEventsUrl({ ip: value });
    case 'domain':
    case 'hostname':
    case 'url':
      return networkEventsUrl({ search: value });
    case 'host':
    case 'host_name':
      return endpointEventsUrl({ host_name: value });
    case 'user':
    case 'user_name':
      return endpointEventsUrl({ user_name: value });
    case 'sha256':
      return filesUrl({ sha256: value });
    case 'md5':
    case 'sha1':
    case 'hash':
      return endpointEventsUrl({ hash: value });
    case 'email':
    case 'sender':
      return mailUrl({ search: value });
    default:
      return null;
  }
}
