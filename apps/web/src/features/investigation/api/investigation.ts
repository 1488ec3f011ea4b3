import { useQuery } from '@tanstack/react-query';
import type {
  EndpointEvent as EndpointEventWire,
  EventDetail as EventDetailWire,
  FileDetail as FileDetailWire,
  FileYara as FileYaraWire,
  MailDetail as MailDetailWire,
  MailListItem as MailListItemWire,
  MailMessage as MailMessageWire,
  NetworkEvent as NetworkEventWire,
  ProcessTree as ProcessTreeWire,
  ProcessTreeRequest,
  StoredEventItem,
  WarehouseFile as WarehouseFileWire,
  WarehouseHash as WarehouseHashWire,
} from '@vigil/contract';
import { endpointUrl, endpoints } from '@vigil/contract/client';
import { call, type Camelize } from '../../../lib/http';
import { defineList, type FiltersOf } from '../../../lib/list';

/** A stored event as lists give it (the normalised event without its raw record). */
export type StoredEvent = Camelize<StoredEventItem>;
/** The normalised network event, as the console reads it (camelCase keys). */
export type NetworkEventView = Camelize<Omit<NetworkEventWire, 'raw'>>;
export type EndpointEventView = Camelize<Omit<EndpointEventWire, 'raw'>>;
export type MailMessageView = Camelize<MailMessageWire>;
export type EventDetail = Camelize<EventDetailWire>;
export type MailDetail = Camelize<MailDetailWire>;
export type MailListItem = Camelize<MailListItemWire>;
export type FileDetail = Camelize<FileDetailWire>;
export type FileYara = Camelize<FileYaraWire>;
export type WarehouseHash = Camelize<WarehouseHashWire>;
export type WarehouseFile = Camelize<WarehouseFileWire>;
export type ProcessTree = Camelize<ProcessTreeWire>;
export type ProcessNode = ProcessTree['processes'][number];

/** The normalised event of a list row, typed by its kind (the API sends it as a JSON object). */
export const networkEventOf = (row: StoredEvent) => row.event as unknown as NetworkEventView;
export const endpointEventOf = (row: StoredEvent) => row.event as unknown as EndpointEventView;
export const mailMessageOf = (row: StoredEvent) => row.event as unknown as MailMessageView;

const paging = { pageSizes: [100, 200], defaultPageSize: 100 } as const;

/** Network events (`POST /api/network/check/`); URL keys are the API's filter names. */
export const networkList = defineList(endpoints.events.network.list, {
  ...paging,
  omit: ['batchId', 'dnsRrname', 'httpHostname', 'tlsSni', 'signatureId'],
});

/** Endpoint events (`POST /api/eclipse_events/check/`). */
export const endpointList = defineList(endpoints.events.endpoint.list, {
  ...paging,
  omit: ['batchId', 'srcIp', 'destIp', 'destPort', 'registryPath', 'dnsQuestion'],
});

/** Mail messages (`POST /api/mailing/check/`). */
export const mailList = defineList(endpoints.events.mail.list, { ...paging, omit: ['batchId'] });

/**
 * Files by hash (`POST /api/warehouse/hashes/check/`): every hash a company saw, with or without the
 * bytes. Other pages link here with `?sha256=`, which the API takes as `hash`.
 */
export const fileList = defineList(endpoints.events.hashes.list, {
  ...paging,
  pick: ['search', 'detectedType', 'verdict', 'source', 'companyId'],
  pageFilters: { sha256: 'string' },
});

/** Stored files (`POST /api/warehouse/check/`): the files whose bytes the warehouse holds, one row a company. */
export const storedFileList = defineList(endpoints.events.warehouse.list, {
  ...paging,
  pick: ['search', 'detectedType', 'companyId'],
  pageFilters: { sha256: 'string' },
});

/** The stored files' URL filters as the API takes them (`sha256` → `hash`). */
export function storedFileApiFilters(
  filters: FiltersOf<typeof storedFileList.filters>,
): FiltersOf<typeof storedFileList.filters> {
  const { sha256, ...rest } = filters;
  return (sha256 ? { ...rest, hash: sha256.toLowerCase() } : rest) as FiltersOf<typeof storedFileList.filters>;
}

/** The file list's URL filters as the API takes them (`sha256` → `hash`). */
export function fileApiFilters(filters: FiltersOf<typeof fileList.filters>): FiltersOf<typeof fileList.filters> {
  const { sha256, ...rest } = filters;
  return (sha256 ? { ...rest, hash: sha256.toLowerCase() } : rest) as FiltersOf<typeof fileList.filters>;
}

export const investigationKeys = {
  network: (id: number) => ['network', 'detail', id] as const,
  endpoint: (id: number) => ['eclipse_events', 'detail', id] as const,
  mail: (id: number) => ['mailing', 'detail', id] as const,
  file: (sha256: string) => ['warehouse', 'detail', sha256] as const,
  fileYara: (sha256: string) => ['warehouse', 'yara', sha256] as const,
  tree: (request: ProcessTreeRequest) => ['eclipse_events', 'process_tree', request] as const,
};

/** The time of an event lets the server look in one partition. */
const tsQuery = (ts: string | undefined) => (ts ? { query: { ts } } : {});

export function useNetworkEvent(id: number | null, ts?: string) {
  return useQuery({
    queryKey: investigationKeys.network(id ?? 0),
    queryFn: ({ signal }) => call(endpoints.events.network.get, { params: { id: id! }, ...tsQuery(ts), signal }),
    enabled: id !== null,
  });
}

export function useEndpointEvent(id: number | null, ts?: string) {
  return useQuery({
    queryKey: investigationKeys.endpoint(id ?? 0),
    queryFn: ({ signal }) => call(endpoints.events.endpoint.get, { params: { id: id! }, ...tsQuery(ts), signal }),
    enabled: id !== null,
  });
}

export function useMailMessage(id: number | null) {
  return useQuery({
    queryKey: investigationKeys.mail(id ?? 0),
    queryFn: ({ signal }) => call(endpoints.events.mail.get, { params: { id: id! }, signal }),
    enabled: id !== null,
  });
}

export function useFileDetail(sha256: string | null) {
  return useQuery({
    queryKey: investigationKeys.file(sha256 ?? ''),
    // A SHA-256 (rather than a row id) is answered with where the file was seen.
    queryFn: ({ signal }) =>
      call(endpoints.events.warehouse.get, { params: { id: sha256! }, signal }) as Promise<FileDetail>,
    enabled: sha256 !== null,
  });
}

/** The YARA rules that matched a file, for the caller's companies that saw it. */
export function useFileYara(sha256: string | null) {
  return useQuery({
    queryKey: investigationKeys.fileYara(sha256 ?? ''),
    queryFn: ({ signal }) => call(endpoints.yaraScans.fileMatches, { params: { sha256: sha256! }, signal }),
    enabled: sha256 !== null,
  });
}

/** Where the browser downloads a stored file's bytes (a link, so the browser saves the file itself). */
export const fileDownloadUrl = (sha256: string) =>
  endpointUrl(endpoints.events.warehouse.download.path, { id: sha256 });

/** Where the browser downloads a mail message's original (`message/rfc822`). */
export const mailOriginalUrl = (id: number) => endpointUrl(endpoints.events.mail.raw.path, { id });

export function useProcessTree(request: ProcessTreeRequest | null) {
  return useQuery({
    queryKey: investigationKeys.tree(request ?? { host_name: '', from: '', to: '' }),
    queryFn: ({ signal }) =>
      call(endpoints.events.endpoint.processTree, {
        body: {
          hostName: request!.host_name,
          from: request!.from,
          to: request!.to,
          ...(request!.root_pid === undefined ? {} : { rootPid: request!.root_pid }),
          ...(request!.company_id === undefined ? {} : { companyId: request!.company_id }),
        },
        signal,
      }),
    enabled: request !== null,
  });
}
