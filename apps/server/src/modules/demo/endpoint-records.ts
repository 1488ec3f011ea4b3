/** Records one customer's endpoint activity as Sysmon/Security EVTX JSON or as ECS from an agent. */
import { createHash } from 'node:crypto';
import type { DemoFile } from './files';
import type { Random } from './random';
import type { DemoCustomer, DemoHost } from './scenario';
import { isoMicros, type TimedLine } from './timeline';

interface Hashes {
  md5: string;
  sha1: string;
  sha256: string;
}

/** A running process on a host. */
interface Proc {
  pid: number;
  guid: string;
  image: string;
  commandLine: string;
  /** DOMAIN\account, or a Linux user name. */
  user: string;
  hashes: Hashes;
  parent: Proc | null;
}

type Activity =
  | { kind: 'process'; proc: Proc }
  | { kind: 'network'; proc: Proc; dest: string; destPort: number; srcPort: number }
  | { kind: 'file'; proc: Proc; path: string; hashes: Hashes | null }
  | { kind: 'registry'; proc: Proc; key: string; details: string }
  | { kind: 'dns'; proc: Proc; query: string; answer: string | null }
  | { kind: 'logon'; user: string; logonType: number; source: string | null; success: boolean };

export const OFFICE = 'C:\\Program Files\\Microsoft Office\\root\\Office16';
export const SYSTEM32 = 'C:\\Windows\\System32';

/** The hashes a real binary of that path would have on every machine (one value per path). */
function imageHashes(image: string): Hashes {
  const digest = (algorithm: string) =>
    createHash(algorithm).update(`vigil-demo-image:${image.toLowerCase()}`).digest('hex');
  return { md5: digest('md5'), sha1: digest('sha1'), sha256: digest('sha256') };
}

/** Only the digests (a DemoFile carries its bytes too). */
function pickHashes(h: Hashes): Hashes {
  return { md5: h.md5, sha1: h.sha1, sha256: h.sha256 };
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('\\'), path.lastIndexOf('/')) + 1);
}

/** The process bookkeeping and serialisers under the endpoint generator. */
export class EndpointRecords {
  readonly lines: TimedLine[] = [];
  private pidSeq = 4000;
  private readonly system = new Map<string, Proc>();

  constructor(
    protected readonly random: Random,
    protected readonly customer: DemoCustomer,
    protected readonly now: number,
    protected readonly files: Map<string, DemoFile>,
  ) {}

  protected host(name: string): DemoHost {
    const found = this.customer.hosts.find((h) => h.name === name);
    if (!found) throw new Error(`no host ${name} in ${this.customer.name}`);
    return found;
  }

  protected account(name: string): string {
    return `${this.customer.adDomain}\\${name}`;
  }

  private guid(): string {
    const h = this.random.hex(32).toUpperCase();
    return `{${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}}`;
  }

  protected spawn(parent: Proc | null, image: string, commandLine: string, user: string, hashes?: Hashes): Proc {
    this.pidSeq += this.random.int(4, 400);
    if (this.pidSeq > 60_000) this.pidSeq = 4000 + this.random.int(0, 400);
    return {
      pid: this.pidSeq,
      guid: this.guid(),
      image,
      commandLine,
      user,
      hashes: pickHashes(hashes ?? imageHashes(image)),
      parent,
    };
  }

  /** services.exe (Windows) or systemd (Linux) of a host, started once. */
  protected root(host: DemoHost): Proc {
    let proc = this.system.get(host.name);
    if (!proc) {
      proc =
        host.os === 'windows'
          ? this.spawn(null, `${SYSTEM32}\\services.exe`, `${SYSTEM32}\\services.exe`, 'NT AUTHORITY\\SYSTEM')
          : this.spawn(null, '/usr/lib/systemd/systemd', '/sbin/init splash', 'root');
      proc.pid = host.os === 'windows' ? 700 + this.random.int(0, 200) : 1;
      this.system.set(host.name, proc);
    }
    return proc;
  }

  protected record(host: DemoHost, at: number, activity: Activity): void {
    const useEvtx = host.os === 'windows' && this.customer.windowsFormat === 'evtx';
    const body = useEvtx ? this.evtx(host, at, activity) : this.ecs(host, at, activity);
    this.lines.push({ at, line: JSON.stringify(body) });
  }

  // ——— Serialisers ———

  private evtx(host: DemoHost, at: number, a: Activity): object {
    const time = isoMicros(at, this.random);
    const utc = time.replace('T', ' ').slice(0, 23);
    const fqdn = `${host.name}.${this.customer.mailDomain}`;
    const sysmon = {
      name: 'Microsoft-Windows-Sysmon',
      guid: '{5770385F-C22A-43E0-BF4C-06F5698FFBD9}',
      channel: 'Microsoft-Windows-Sysmon/Operational',
    };
    const security = {
      name: 'Microsoft-Windows-Security-Auditing',
      guid: '{54849625-5478-4994-A5BA-3E3B0328C30D}',
      channel: 'Security',
    };
    const hashes = (h: Hashes) =>
      `SHA1=${h.sha1.toUpperCase()},MD5=${h.md5.toUpperCase()},SHA256=${h.sha256.toUpperCase()}`;
    let provider = sysmon;
    let eventId: number;
    let data: Record<string, string | number>;
    const procData = (p: Proc) => ({
      RuleName: '-',
      UtcTime: utc,
      ProcessGuid: p.guid,
      ProcessId: p.pid,
      Image: p.image,
    });
    switch (a.kind) {
      case 'process': {
        const p = a.proc;
        eventId = 1;
        data = {
          ...procData(p),
          FileVersion: '10.0.19041.1',
          CommandLine: p.commandLine,
          CurrentDirectory: p.user.includes('SYSTEM') ? `${SYSTEM32}\\` : `C:\\Users\\${p.user.split('\\')[1] ?? ''}\\`,
          User: p.user,
          LogonId: `0x${this.random.hex(6)}`,
          TerminalSessionId: p.user.includes('SYSTEM') ? 0 : 1,
          IntegrityLevel: p.user.includes('SYSTEM') ? 'System' : 'Medium',
          Hashes: hashes(p.hashes),
          ParentProcessGuid: p.parent?.guid ?? this.guid(),
          ParentProcessId: p.parent?.pid ?? 4,
          ParentImage: p.parent?.image ?? 'System',
          ParentCommandLine: p.parent?.commandLine ?? '',
          ParentUser: p.parent?.user ?? 'NT AUTHORITY\\SYSTEM',
        };
        break;
      }
      case 'network':
        eventId = 3;
        data = {
          ...procData(a.proc),
          User: a.proc.user,
          Protocol: 'tcp',
          Initiated: 'true',
          SourceIsIpv6: 'false',
          SourceIp: host.ip,
          SourceHostname: fqdn,
          SourcePort: a.srcPort,
          DestinationIsIpv6: 'false',
          DestinationIp: a.dest,
          DestinationHostname: '-',
          DestinationPort: a.destPort,
        };
        break;
      case 'file':
        eventId = a.hashes ? 29 : 11;
        data = {
          ...procData(a.proc),
          TargetFilename: a.path,
          CreationUtcTime: utc,
          User: a.proc.user,
          ...(a.hashes ? { Hashes: hashes(a.hashes) } : {}),
        };
        break;
      case 'registry':
        eventId = 13;
        data = {
          ...procData(a.proc),
          EventType: 'SetValue',
          TargetObject: a.key,
          Details: a.details,
          User: a.proc.user,
        };
        break;
      case 'dns':
        eventId = 22;
        data = {
          ...procData(a.proc),
          QueryName: a.query,
          QueryStatus: a.answer ? '0' : '9003',
          QueryResults: a.answer ? `::ffff:${a.answer};` : '-',
          User: a.proc.user,
        };
        break;
      case 'logon': {
        provider = security;
        eventId = a.success ? 4624 : 4625;
        const [domain, name] = a.user.includes('\\') ? a.user.split('\\') : [this.customer.adDomain, a.user];
        data = {
          SubjectUserSid: 'S-1-5-18',
          SubjectUserName: `${host.name}$`,
          SubjectDomainName: this.customer.adDomain,
          SubjectLogonId: '0x3e7',
          TargetUserSid: `S-1-5-21-3623811015-3361044348-30300820-${this.random.int(1100, 1900)}`,
          TargetUserName: name ?? '',
          TargetDomainName: domain ?? '',
          LogonType: a.logonType,
          LogonProcessName: a.logonType === 3 ? 'NtLmSsp ' : 'User32 ',
          AuthenticationPackageName: a.logonType === 3 ? 'NTLM' : 'Negotiate',
          WorkstationName: a.source ? '-' : host.name,
          IpAddress: a.source ?? '127.0.0.1',
          IpPort: a.source ? this.random.int(49152, 65535) : 0,
          ...(a.success
            ? { TargetLogonId: `0x${this.random.hex(6)}` }
            : { Status: '0xc000006d', SubStatus: '0xc000006a', FailureReason: '%%2313' }),
        };
        break;
      }
    }
    return {
      Event: {
        '#attributes': { xmlns: 'http://schemas.microsoft.com/win/2004/08/events/event' },
        System: {
          Provider: { '#attributes': { Name: provider.name, Guid: provider.guid } },
          EventID: eventId,
          Version: 5,
          Level: 4,
          Task: eventId,
          Opcode: 0,
          Keywords:
            provider === security
              ? a.kind === 'logon' && !a.success
                ? '0x8010000000000000'
                : '0x8020000000000000'
              : '0x8000000000000000',
          TimeCreated: { '#attributes': { SystemTime: time } },
          EventRecordID: this.random.int(100_000, 9_000_000),
          Correlation: null,
          Execution: {
            '#attributes': { ProcessID: provider === security ? 708 : 3308, ThreadID: this.random.int(1000, 9000) },
          },
          Channel: provider.channel,
          Computer: fqdn,
          Security: { '#attributes': { UserID: 'S-1-5-18' } },
        },
        EventData: data,
      },
    };
  }

  private ecs(host: DemoHost, at: number, a: Activity): object {
    const windows = host.os === 'windows';
    const base: Record<string, unknown> = {
      '@timestamp': isoMicros(at, this.random),
      host: {
        name: host.name,
        hostname: host.name.toLowerCase(),
        ip: [host.ip],
        os: { full: host.osName, family: windows ? 'windows' : 'linux', platform: windows ? 'windows' : 'ubuntu' },
      },
      agent: { type: 'endpoint', version: '8.15.3' },
      ecs: { version: '8.11.0' },
    };
    const proc = (p: Proc) => ({
      pid: p.pid,
      entity_id: p.guid.replace(/[{}]/g, ''),
      name: baseName(p.image),
      executable: p.image,
      command_line: p.commandLine,
      hash: { ...p.hashes },
      user: { name: p.user.includes('\\') ? p.user.split('\\')[1] : p.user },
      ...(p.parent
        ? {
            parent: {
              pid: p.parent.pid,
              name: baseName(p.parent.image),
              executable: p.parent.image,
              command_line: p.parent.commandLine,
            },
          }
        : {}),
    });
    const user = (name: string) => {
      const [domain, account] = name.includes('\\') ? name.split('\\') : [null, name];
      return { name: account, ...(domain ? { domain } : {}) };
    };
    switch (a.kind) {
      case 'process':
        return {
          ...base,
          event: { kind: 'event', category: ['process'], type: ['start'], action: 'start' },
          process: proc(a.proc),
          user: user(a.proc.user),
        };
      case 'network':
        return {
          ...base,
          event: { kind: 'event', category: ['network'], type: ['start'], action: 'connection_attempted' },
          process: proc(a.proc),
          source: { ip: host.ip, port: a.srcPort },
          destination: { ip: a.dest, port: a.destPort },
          network: { transport: 'tcp', direction: 'egress' },
          user: user(a.proc.user),
        };
      case 'file':
        return {
          ...base,
          event: { kind: 'event', category: ['file'], type: ['creation'], action: 'creation' },
          process: proc(a.proc),
          file: { path: a.path, name: baseName(a.path), ...(a.hashes ? { hash: pickHashes(a.hashes) } : {}) },
          user: user(a.proc.user),
        };
      case 'registry': {
        const [hive, ...rest] = a.key.split('\\');
        const value = rest.pop() ?? '';
        return {
          ...base,
          event: { kind: 'event', category: ['registry'], type: ['change'], action: 'modification' },
          process: proc(a.proc),
          registry: { path: a.key, hive, key: rest.join('\\'), value, data: { strings: [a.details] } },
          user: user(a.proc.user),
        };
      }
      case 'dns':
        return {
          ...base,
          event: { kind: 'event', category: ['network'], type: ['protocol'], action: 'lookup_result' },
          process: proc(a.proc),
          dns: { question: { name: a.query, type: 'A' }, ...(a.answer ? { resolved_ip: [a.answer] } : {}) },
          user: user(a.proc.user),
        };
      case 'logon':
        return {
          ...base,
          event: {
            kind: 'event',
            category: ['authentication'],
            type: ['start'],
            action: windows ? (a.success ? 'logged-in' : 'logon-failed') : a.success ? 'ssh_login' : 'ssh_login_failed',
            outcome: a.success ? 'success' : 'failure',
            ...(windows ? { code: a.success ? '4624' : '4625', provider: 'Microsoft-Windows-Security-Auditing' } : {}),
          },
          user: user(a.user),
          ...(a.source ? { source: { ip: a.source } } : {}),
          ...(windows
            ? {
                winlog: {
                  channel: 'Security',
                  logon: {
                    type: a.logonType === 10 ? 'RemoteInteractive' : a.logonType === 3 ? 'Network' : 'Interactive',
                  },
                },
              }
            : {}),
        };
    }
  }

  protected file(name: string): DemoFile {
    const file = this.files.get(name);
    if (!file) throw new Error(`no file ${name}`);
    return file;
  }
}
