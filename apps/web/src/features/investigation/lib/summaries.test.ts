import { describe, expect, it } from 'vitest';
import type { EndpointEventView, NetworkEventView } from '../api/investigation';
import { dhcpAck, networkEvent } from './network-event.fixture';
import { endpointLabel, endpointSummary, formatBytes, networkSummary } from './summaries';

/** What `networkSummary` answers: the main line, the detail, and the file hash to link if any. */
const summary = (main: string, detail: string, sha256: string | null = null) => ({ main, detail, sha256 });

describe('networkSummary', () => {
  it('DNS: the query and its answers', () => {
    const event = networkEvent({
      eventType: 'dns',
      dns: {
        type: 'answer',
        rrname: 'login.example.com',
        rrtype: 'A',
        rcode: 'NOERROR',
        answers: [
          { rrname: 'login.example.com', rrtype: 'A', ttl: 60, rdata: '198.51.100.1' },
          { rrname: 'login.example.com', rrtype: 'A', ttl: 60, rdata: '198.51.100.2' },
        ],
      },
    });
    expect(networkSummary(event)).toEqual(summary('A login.example.com', '→ 198.51.100.1, 198.51.100.2'));
  });

  it('HTTP: method, host and URL, then status', () => {
    const event = networkEvent({
      eventType: 'http',
      http: {
        hostname: 'example.com',
        url: '/a.exe',
        httpMethod: 'GET',
        status: 200,
        httpUserAgent: null,
        httpContentType: null,
        length: 10,
        protocol: 'HTTP/1.1',
        httpRefer: null,
        redirect: null,
      },
    });
    expect(networkSummary(event)).toMatchObject({ main: 'GET example.com/a.exe', detail: '200' });
  });

  it('TLS: SNI and version', () => {
    const event = networkEvent({
      eventType: 'tls',
      tls: {
        sni: 'cdn.example.net',
        version: 'TLS 1.3',
        subject: null,
        issuerdn: null,
        fingerprint: null,
        ja3: null,
        ja3s: null,
        ja4: null,
        serial: null,
        notbefore: null,
        notafter: null,
      },
    });
    expect(networkSummary(event)).toMatchObject({ main: 'cdn.example.net', detail: 'TLS 1.3' });
  });

  it('fileinfo: the name, its hash to link, type and size', () => {
    const sha256 = 'a'.repeat(64);
    const event = networkEvent({
      eventType: 'fileinfo',
      fileinfo: {
        filename: '/invoice.exe',
        magic: 'PE32',
        size: 2048,
        md5: null,
        sha1: null,
        sha256,
        state: 'CLOSED',
        stored: true,
        gaps: false,
      },
    });
    expect(networkSummary(event, 'en')).toEqual(summary('/invoice.exe', 'PE32 · 2 kB', sha256));
  });

  it('alert: the signature, category and SID, whatever the type', () => {
    const event = networkEvent({
      eventType: 'alert',
      severity: 'high',
      alert: {
        action: 'allowed',
        gid: 1,
        signatureId: 2024217,
        rev: 3,
        signature: 'ET MALWARE Beacon',
        category: 'A Network Trojan was detected',
        severity: 1,
        mitreTacticIds: [],
        mitreTechniqueIds: [],
        metadata: {},
      },
    });
    expect(networkSummary(event)).toEqual(summary('ET MALWARE Beacon', 'A Network Trojan was detected · SID 2024217'));
  });
});

describe('networkSummary of the application-layer records', () => {
  it('SSH: client software to server software', () => {
    const event = networkEvent({
      eventType: 'ssh',
      ssh: {
        client: { protoVersion: '2.0', softwareVersion: 'libssh2_1.10.0', hassh: 'ec7378c1a92f5a8dde7e8b7a1ddf33d1' },
        server: { protoVersion: '2.0', softwareVersion: 'OpenSSH_8.9p1', hassh: null },
      },
    });
    expect(networkSummary(event)).toEqual(
      summary('libssh2_1.10.0 → OpenSSH_8.9p1', 'ec7378c1a92f5a8dde7e8b7a1ddf33d1'),
    );
  });

  it('DHCP: the message, the device and the address it was given, then its host name', () => {
    const dhcp = dhcpAck({
      assignedIp: '10.20.1.57',
      hostname: 'WS-FIN-07',
      leaseTime: 86400,
      subnetMask: '255.255.255.0',
    });
    expect(networkSummary(networkEvent({ eventType: 'dhcp', dhcp }))).toEqual(
      summary('ack 00:1a:2b:3c:4d:5e → 10.20.1.57', 'WS-FIN-07'),
    );
  });

  it('SMTP: envelope sender to recipients, then the subject', () => {
    const smtp: NonNullable<NetworkEventView['smtp']> = {
      helo: 'mail.example.net',
      mailFrom: '<billing@example.net>',
      rcptTo: ['<ap@example.com>', '<cfo@example.com>'],
      from: null,
      to: [],
      cc: [],
      subject: 'Invoice 4471',
      attachments: [],
      status: 'PARSE_DONE',
    };
    expect(networkSummary(networkEvent({ eventType: 'smtp', smtp }))).toEqual(
      summary('<billing@example.net> → <ap@example.com>, <cfo@example.com>', 'Invoice 4471'),
    );
  });
});

describe('endpointSummary', () => {
  const event = (changes: Partial<EndpointEventView>): EndpointEventView => ({
    timestamp: '2024-03-12T14:00:00Z',
    sourceFormat: 'ecs',
    host: { name: 'WS-1', ip: [], os: null },
    event: {
      action: null,
      shipperAction: null,
      category: [],
      code: null,
      provider: null,
      channel: null,
      outcome: null,
    },
    process: null,
    targetProcess: null,
    file: null,
    user: null,
    targetUser: null,
    group: null,
    network: null,
    registry: null,
    dns: null,
    eventData: {},
    ...changes,
  });
  const process = {
    pid: 1,
    name: 'powershell.exe',
    executable: 'C:\\powershell.exe',
    commandLine: 'powershell -enc AAAA',
    entityId: null,
    parent: null,
    hash: { md5: null, sha1: null, sha256: null },
    user: null,
    originalFileName: null,
    integrityLevel: null,
  };

  it('a process start shows its command line', () => {
    expect(endpointSummary(event({ event: { ...event({}).event, action: 'process-create' }, process }))).toBe(
      'powershell -enc AAAA',
    );
  });

  it('a file, registry value or connection shows what it touched', () => {
    expect(
      endpointSummary(
        event({ process, file: { path: 'C:\\a.dll', name: 'a.dll', hash: process.hash, originalFileName: null } }),
      ),
    ).toBe('C:\\a.dll');
    expect(
      endpointSummary(
        event({ registry: { path: 'HKLM\\Run\\x', hive: 'HKLM', key: 'Run', value: 'x', data: 'c:\\x.exe' } }),
      ),
    ).toBe('HKLM\\Run\\x = c:\\x.exe');
    expect(
      endpointSummary(
        event({ network: { srcIp: '10.0.0.1', srcPort: 5000, destIp: '2001:db8::1', destPort: 443, protocol: 'tcp' } }),
      ),
    ).toBe('10.0.0.1:5000 → [2001:db8::1]:443');
  });

  it('a process opened by another shows the target and the access granted', () => {
    const targetProcess = {
      pid: 684,
      name: 'lsass.exe',
      executable: 'C:\\Windows\\System32\\lsass.exe',
      entityId: null,
      grantedAccess: '0x1010',
    };
    expect(
      endpointSummary(event({ event: { ...event({}).event, action: 'process-access' }, process, targetProcess })),
    ).toBe('→ C:\\Windows\\System32\\lsass.exe (0x1010)');
  });
});

describe('formatting', () => {
  it('bytes in the language and endpoints with ports', () => {
    expect(formatBytes(512, 'en')).toBe('512B');
    expect(formatBytes(512, 'ru')).toBe('512 Б');
    expect(formatBytes(1536, 'en')).toBe('1.5 kB');
    expect(formatBytes(1536, 'ru')).toBe('1,5 кБ');
    expect(endpointLabel('10.0.0.1', null)).toBe('10.0.0.1');
    expect(endpointLabel(null, 80)).toBe('—');
  });
});
