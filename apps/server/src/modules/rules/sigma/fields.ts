import type { EndpointEvent, FileHashes } from '@vigil/contract';
import type { EventView, FieldValue } from './types';

/*
 * Sigma's Windows field names over a stored endpoint event. A Windows event (EVTX export, flat
 * Windows JSON, Winlogbeat) keeps its EventData by name in `event_data`: a field is read from
 * there first, as the rule's author saw it. The System fields come from the event group
 * (EventID, Provider_Name, Channel, Computer). Where the event has no such EventData field —
 * ECS events from Elastic Defend and the like, or a Security 4688, which names the process
 * NewProcessName — the field is read from the normalised event (and the ECS fields Vigil keeps
 * in `raw`) by the table below. Names are matched exactly, then ignoring case.
 */

type Reader = (e: EndpointEvent) => FieldValue | readonly FieldValue[] | undefined;

/** A dotted ECS path: its parts, and from each part on the rest of the path written with dots. */
interface RawPath {
  readonly parts: readonly string[];
  readonly rests: readonly string[];
}

/** A value under a dotted ECS path of the raw record, nested or written with dots. */
function rawPath(raw: Record<string, unknown>, path: RawPath): FieldValue | undefined {
  const { parts, rests } = path;
  let node: unknown = raw;
  for (let i = 0; i < parts.length; i++) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    const obj = node as Record<string, unknown>;
    if (i < parts.length - 1 && Object.hasOwn(obj, rests[i]!)) {
      node = obj[rests[i]!];
      break;
    }
    node = Object.hasOwn(obj, parts[i]!) ? obj[parts[i]!] : undefined;
  }
  return typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean' ? node : undefined;
}

function raw(...paths: string[]): Reader {
  // The joined rests are made once here: this runs for every event.
  const split: RawPath[] = paths.map((p) => {
    const parts = p.split('.');
    return { parts, rests: parts.map((_, i) => parts.slice(i).join('.')) };
  });
  return (e) => {
    for (const path of split) {
      const v = rawPath(e.raw, path);
      if (v !== undefined) return v;
    }
    return undefined;
  };
}

/** Sysmon's `SHA1=…,MD5=…,SHA256=…`, from the hashes Vigil read. */
function sysmonHashes(h: FileHashes | undefined): string | undefined {
  if (h === undefined) return undefined;
  const parts = (['sha1', 'md5', 'sha256'] as const)
    .filter((k) => h[k] !== null)
    .map((k) => `${k.toUpperCase()}=${h[k]!.toUpperCase()}`);
  return parts.length === 0 ? undefined : parts.join(',');
}

/** Elastic Defend names a loaded library `dll`, not `file`. */
const dllPath = raw('dll.path');
const NETWORK_DIRECTION = raw('network.direction');
const rawText = (e: EndpointEvent, reader: Reader): string | undefined => {
  const v = reader(e);
  return typeof v === 'string' ? v : undefined;
};

const account = (name: string | null | undefined, domain: string | null | undefined) =>
  name === null || name === undefined ? undefined : domain ? `${domain}\\${name}` : name;

const pipe = (e: EndpointEvent) => e.event.action === 'pipe-create' || e.event.action === 'pipe-connect';

/** Sigma field → where the normalised event keeps it, for events without that EventData field. */
export const NORMALISED_FIELDS: Readonly<Record<string, Reader>> = {
  Image: (e) => e.process?.executable,
  CommandLine: (e) => e.process?.command_line,
  ProcessId: (e) => e.process?.pid,
  ProcessGuid: (e) => e.process?.entity_id,
  ParentImage: (e) => e.process?.parent?.executable,
  ParentCommandLine: (e) => e.process?.parent?.command_line,
  ParentProcessId: (e) => e.process?.parent?.pid,
  ParentProcessGuid: (e) => e.process?.parent?.entity_id,
  ParentUser: (e) => e.process?.parent?.user,
  OriginalFileName: (e) => e.process?.original_file_name ?? e.file?.original_file_name,
  User: (e) => e.process?.user ?? account(e.user?.name, e.user?.domain),
  IntegrityLevel: (e) => e.process?.integrity_level,
  Hashes: (e) => sysmonHashes(e.process?.hash) ?? sysmonHashes(e.file?.hash),
  md5: (e) => e.process?.hash.md5 ?? e.file?.hash.md5,
  sha1: (e) => e.process?.hash.sha1 ?? e.file?.hash.sha1,
  sha256: (e) => e.process?.hash.sha256 ?? e.file?.hash.sha256,
  CurrentDirectory: raw('process.working_directory'),
  Description: raw('process.pe.description', 'file.pe.description', 'dll.pe.description'),
  Product: raw('process.pe.product', 'file.pe.product', 'dll.pe.product'),
  Company: raw('process.pe.company', 'file.pe.company', 'dll.pe.company'),
  FileVersion: raw('process.pe.file_version', 'file.pe.file_version', 'dll.pe.file_version'),
  TargetFilename: (e) => (pipe(e) ? undefined : e.file?.path),
  ImageLoaded: (e) =>
    e.event.action === 'image-load' || e.event.action === 'driver-load' ? (e.file?.path ?? dllPath(e)) : undefined,
  PipeName: (e) => (pipe(e) ? e.file?.path : undefined),
  TargetObject: (e) => e.registry?.path,
  Details: (e) => e.registry?.data,
  DestinationIp: (e) => e.network?.dest_ip,
  DestinationPort: (e) => e.network?.dest_port,
  DestinationHostname: raw('destination.domain'),
  Initiated: (e) => {
    const direction = rawText(e, NETWORK_DIRECTION)?.toLowerCase();
    if (direction === 'outbound' || direction === 'egress') return 'true';
    if (direction === 'inbound' || direction === 'ingress') return 'false';
    return undefined;
  },
  SourceIp: (e) => e.network?.src_ip,
  SourcePort: (e) => e.network?.src_port,
  Protocol: (e) => e.network?.protocol,
  QueryName: (e) => e.dns?.question,
  QueryResults: (e) => (e.dns === null || e.dns.answers.length === 0 ? undefined : e.dns.answers.join(';')),
  SourceImage: (e) => (e.target_process === null ? undefined : e.process?.executable),
  TargetImage: (e) => e.target_process?.executable,
  GrantedAccess: (e) => e.target_process?.granted_access,
  TargetProcessId: (e) => e.target_process?.pid,
  ScriptBlockText: raw('powershell.file.script_block_text'),
  SubjectUserName: (e) => e.user?.name,
  SubjectDomainName: (e) => e.user?.domain,
  TargetUserName: (e) => e.target_user?.name,
  TargetDomainName: (e) => e.target_user?.domain,
};

/** Fields a Security 4688 names differently from Sysmon's process creation. */
const SECURITY_4688: Readonly<Record<string, string>> = {
  Image: 'NewProcessName',
  ParentImage: 'ParentProcessName',
};

const SYSTEM_FIELDS: Readonly<Record<string, Reader>> = {
  EventID: (e) =>
    e.event.code !== null && /^\d+$/.test(e.event.code) ? Number(e.event.code) : (e.event.code ?? undefined),
  Provider_Name: (e) => e.event.provider,
  Channel: (e) => e.event.channel,
  Computer: (e) => e.host.name,
  ComputerName: (e) => e.host.name,
};

const asList = (v: FieldValue | readonly FieldValue[] | undefined): readonly FieldValue[] | undefined =>
  v === undefined ? undefined : Array.isArray(v) ? (v as readonly FieldValue[]) : [v as FieldValue];

const asText = (v: FieldValue): string | null => (v === null ? null : typeof v === 'string' ? v : String(v));

/** The view of one endpoint event the compiled rules read; values are worked out once per field. */
export class EndpointView implements EventView {
  private readonly values = new Map<string, readonly FieldValue[] | undefined>();
  private readonly textCache = [
    new Map<string, readonly string[] | undefined>(),
    new Map<string, readonly string[] | undefined>(),
  ];
  private lowerKeys: Map<string, string> | null = null;
  private allTexts: [string[] | null, string[] | null] = [null, null];
  private readonly data: Record<string, FieldValue>;
  private readonly normalisedFallback: boolean;

  constructor(readonly event: EndpointEvent) {
    this.data = event.event_data;
    // Windows events keep their own fields: the normalised ones stand in only for ECS events.
    this.normalisedFallback = event.source_format === 'ecs';
  }

  private dataKey(field: string): string | undefined {
    if (Object.hasOwn(this.data, field)) return field;
    if (this.lowerKeys === null) {
      this.lowerKeys = new Map();
      for (const key of Object.keys(this.data))
        if (!this.lowerKeys.has(key.toLowerCase())) this.lowerKeys.set(key.toLowerCase(), key);
    }
    return this.lowerKeys.get(field.toLowerCase());
  }

  private resolve(field: string): readonly FieldValue[] | undefined {
    const e = this.event;
    if (Object.hasOwn(SYSTEM_FIELDS, field)) {
      const v = SYSTEM_FIELDS[field]!(e);
      return v === null ? undefined : asList(v);
    }
    const key = this.dataKey(field);
    if (key !== undefined) return [this.data[key]!];
    if (e.event.code === '4688' && Object.hasOwn(SECURITY_4688, field)) {
      const renamed = this.dataKey(SECURITY_4688[field]!);
      if (renamed !== undefined) return [this.data[renamed]!];
    }
    if (this.normalisedFallback && Object.hasOwn(NORMALISED_FIELDS, field)) {
      const v = NORMALISED_FIELDS[field]!(e);
      return v === null ? undefined : asList(v);
    }
    return undefined;
  }

  get(field: string): readonly FieldValue[] | undefined {
    if (this.values.has(field)) return this.values.get(field);
    const v = this.resolve(field);
    this.values.set(field, v);
    return v;
  }

  strings(field: string, cased: boolean): readonly string[] | undefined {
    const cache = this.textCache[cased ? 1 : 0]!;
    if (cache.has(field)) return cache.get(field);
    const values = this.get(field);
    let out: string[] | undefined;
    if (values !== undefined) {
      out = [];
      for (const v of values) {
        const t = asText(v);
        if (t !== null) out.push(cased ? t : t.toLowerCase());
      }
    }
    cache.set(field, out);
    return out;
  }

  texts(cased: boolean): readonly string[] {
    const index = cased ? 1 : 0;
    const cached = this.allTexts[index];
    if (cached) return cached;
    const out: string[] = [];
    const add = (v: FieldValue | readonly FieldValue[] | undefined) => {
      for (const x of asList(v) ?? []) {
        const t = asText(x);
        if (t !== null && t !== '') out.push(cased ? t : t.toLowerCase());
      }
    };
    for (const reader of Object.values(SYSTEM_FIELDS)) add(reader(this.event) ?? undefined);
    for (const v of Object.values(this.data)) add(v);
    if (this.normalisedFallback)
      for (const reader of Object.values(NORMALISED_FIELDS)) add(reader(this.event) ?? undefined);
    this.allTexts[index] = out;
    return out;
  }
}
