/** Writes one customer's Suricata EVE records: flows, DNS, TLS and HTTP transactions, alerts. */
import type { DemoFile } from './files';
import { SIGNATURES, type SignaturePlan } from './internet';
import type { Random } from './random';
import type { DemoCustomer, DemoHost } from './scenario';
import { eveTime, type TimedLine } from './timeline';

export type Eve = Record<string, unknown>;

/** The records of one sensor; the generator above it decides what traffic to write. */
export class EveRecords {
  readonly lines: TimedLine[] = [];
  private flowSeq: bigint;

  constructor(
    protected readonly random: Random,
    protected readonly customer: DemoCustomer,
    protected readonly now: number,
    protected readonly files: Map<string, DemoFile>,
  ) {
    this.flowSeq = BigInt(random.int(1, 2 ** 30)) * 1_000_003n;
  }

  protected get workstations(): DemoHost[] {
    return this.customer.hosts.filter((h) => h.role === 'workstation');
  }
  protected get servers(): DemoHost[] {
    return this.customer.hosts.filter((h) => h.role === 'server');
  }
  protected host(name: string): DemoHost {
    const found = this.customer.hosts.find((h) => h.name === name);
    if (!found) throw new Error(`no host ${name} in ${this.customer.name}`);
    return found;
  }

  protected flowId(): number {
    this.flowSeq += BigInt(this.random.int(1, 5_000_000));
    // EVE flow ids are 64-bit; these stay below 2^53 so they are exact in any JSON reader.
    return Number(this.flowSeq % 9_007_199_254_740_000n);
  }

  protected communityId(): string {
    return `1:${this.random.bytes(20).toString('base64')}`;
  }

  protected emit(at: number, record: Eve): void {
    this.lines.push({
      at,
      line: JSON.stringify({ timestamp: eveTime(at, this.random), ...record, host: this.customer.sensor }),
    });
  }

  protected base(
    eventType: string,
    flow: { id: number; community: string },
    src: string,
    srcPort: number,
    dest: string,
    destPort: number,
    proto: 'TCP' | 'UDP',
    appProto?: string,
  ): Eve {
    return {
      flow_id: flow.id,
      in_iface: 'ens192',
      event_type: eventType,
      src_ip: src,
      src_port: srcPort,
      dest_ip: dest,
      dest_port: destPort,
      proto,
      ...(appProto ? { app_proto: appProto } : {}),
      community_id: flow.community,
    };
  }

  protected newFlow() {
    return { id: this.flowId(), community: this.communityId() };
  }

  protected ephemeral(): number {
    return this.random.int(49152, 65535);
  }

  protected flowRecord(
    at: number,
    flow: { id: number; community: string },
    src: string,
    srcPort: number,
    dest: string,
    destPort: number,
    proto: 'TCP' | 'UDP',
    appProto: string | undefined,
    bytesOut: number,
    bytesIn: number,
    alerted = false,
  ): void {
    const seconds = this.random.int(1, 120);
    const end = at + seconds * 1000;
    this.emit(end + this.random.int(30, 120) * 1000, {
      ...this.base('flow', flow, src, srcPort, dest, destPort, proto, appProto),
      flow: {
        pkts_toserver: Math.max(1, Math.round(bytesOut / 700)),
        pkts_toclient: Math.max(1, Math.round(bytesIn / 1100)),
        bytes_toserver: bytesOut,
        bytes_toclient: bytesIn,
        start: eveTime(at, this.random),
        end: eveTime(end, this.random),
        age: seconds,
        state: proto === 'TCP' ? 'closed' : 'established',
        reason: 'timeout',
        alerted,
      },
      ...(proto === 'TCP'
        ? { tcp: { tcp_flags: '1b', syn: true, fin: true, psh: true, ack: true, state: 'closed' } }
        : {}),
    });
  }

  /** A DNS question and its answer from a client through the company resolver. */
  dns(at: number, client: string, name: string, answer: string | null): void {
    const flow = this.newFlow();
    const port = this.ephemeral();
    const id = this.random.int(1, 65535);
    this.emit(at, {
      ...this.base('dns', flow, client, port, this.customer.resolver, 53, 'UDP', 'dns'),
      dns: { version: 2, type: 'query', id, rrname: name, rrtype: 'A', tx_id: 0, opcode: 0 },
    });
    this.emit(at + this.random.int(2, 40), {
      ...this.base('dns', flow, this.customer.resolver, 53, client, port, 'UDP', 'dns'),
      dns: {
        version: 2,
        type: 'answer',
        id,
        flags: answer ? '8180' : '8183',
        qr: true,
        rd: true,
        ra: true,
        opcode: 0,
        rrname: name,
        rrtype: 'A',
        rcode: answer ? 'NOERROR' : 'NXDOMAIN',
        ...(answer ? { answers: [{ rrname: name, rrtype: 'A', ttl: this.random.int(30, 3600), rdata: answer }] } : {}),
      },
    });
  }

  /** A TLS session: its handshake record and its flow. */
  tls(at: number, client: string, server: string, sni: string, issuer: string, alert?: SignaturePlan): void {
    const flow = this.newFlow();
    const port = this.ephemeral();
    const tls = {
      subject: `CN=${sni}`,
      issuerdn: issuer,
      serial: this.random.hex(32).toUpperCase().match(/.{2}/g)!.join(':'),
      fingerprint: this.random.hex(40).match(/.{2}/g)!.join(':'),
      sni,
      version: this.random.chance(0.8) ? 'TLS 1.3' : 'TLS 1.2',
      notbefore: new Date(at - 40 * 24 * 3600_000).toISOString().slice(0, 19),
      notafter: new Date(at + 50 * 24 * 3600_000).toISOString().slice(0, 19),
      ja3: {
        hash: this.random.hex(32),
        string: '771,4865-4866-4867-49195-49199,0-23-65281-10-11-35-16-5-13-18-51-45-43-27,29-23-24,0',
      },
      ja3s: { hash: this.random.hex(32), string: '771,4865,51-43' },
    };
    this.emit(at, { ...this.base('tls', flow, client, port, server, 443, 'TCP', 'tls'), tls });
    if (alert) this.alert(at + 5, flow, client, port, server, 443, 'TCP', 'tls', alert, { tls });
    this.flowRecord(
      at,
      flow,
      client,
      port,
      server,
      443,
      'TCP',
      'tls',
      this.random.int(900, 40_000),
      this.random.int(4_000, 900_000),
      !!alert,
    );
  }

  /** An HTTP request, optionally carrying a file (fileinfo with hashes) and an alert. */
  http(
    at: number,
    client: string,
    server: string,
    request: { hostname: string; url: string; ua: string; method?: string; status?: number; contentType?: string },
    file?: { filename: string; magic: string; size: number; md5: string; sha1: string; sha256: string },
    alert?: SignaturePlan,
  ): void {
    const flow = this.newFlow();
    const port = this.ephemeral();
    const length = file?.size ?? this.random.int(300, 90_000);
    const http = {
      hostname: request.hostname,
      url: request.url,
      http_user_agent: request.ua,
      http_content_type: request.contentType ?? 'text/html',
      http_method: request.method ?? 'GET',
      protocol: 'HTTP/1.1',
      status: request.status ?? 200,
      length,
    };
    this.emit(at, { ...this.base('http', flow, client, port, server, 80, 'TCP', 'http'), tx_id: 0, http });
    if (file) {
      this.emit(at + this.random.int(50, 900), {
        ...this.base('fileinfo', flow, server, 80, client, port, 'TCP', 'http'),
        http,
        fileinfo: {
          filename: file.filename,
          magic: file.magic,
          gaps: false,
          state: 'CLOSED',
          md5: file.md5,
          sha1: file.sha1,
          sha256: file.sha256,
          stored: false,
          size: file.size,
          tx_id: 0,
        },
      });
    }
    if (alert) this.alert(at + 3, flow, client, port, server, 80, 'TCP', 'http', alert, { http });
    this.flowRecord(
      at,
      flow,
      client,
      port,
      server,
      80,
      'TCP',
      'http',
      this.random.int(400, 2_000),
      length + 400,
      !!alert,
    );
  }

  protected alert(
    at: number,
    flow: { id: number; community: string },
    src: string,
    srcPort: number,
    dest: string,
    destPort: number,
    proto: 'TCP' | 'UDP',
    appProto: string | undefined,
    signature: SignaturePlan,
    context: Eve = {},
  ): void {
    this.emit(at, {
      ...this.base('alert', flow, src, srcPort, dest, destPort, proto, appProto),
      tx_id: 0,
      alert: {
        action: 'allowed',
        gid: 1,
        signature_id: signature.sid,
        rev: signature.rev,
        signature: signature.signature,
        category: signature.category,
        severity: signature.severity,
        ...(signature.mitre ? { metadata: { mitre_technique_id: signature.mitre } } : {}),
      },
      ...context,
      direction: 'to_server',
    });
  }

  protected signature(sid: number): SignaturePlan {
    const found = SIGNATURES.find((s) => s.sid === sid);
    if (!found) throw new Error(`no signature ${sid}`);
    return found;
  }

  protected fileOf(name: string, path: string, magic: string) {
    const file = this.files.get(name);
    if (!file) throw new Error(`no file ${name}`);
    return { filename: path, magic, size: file.content.length, md5: file.md5, sha1: file.sha1, sha256: file.sha256 };
  }
}
