import { describe, expect, it } from 'vitest';
import type { EndpointEventView, NetworkEventView } from '../api/investigation';
import { endpointLabel, endpointSummary, formatBytes, networkSummary } from './summaries';

const base: NetworkEventView = {
  timestamp: '2024-03-12T14:00:00Z',
  eventType: 'flow',
  srcIp: '10.0.0.5',
  srcPort: 51000,
  destIp: '203.0.113.7',
  destPort: 443,
  proto: 'TCP',
  appProto: null,
  flowId: null,
  communityId: null,
  host: 'sensor-1',
  severity: null,
  alert: null,
  dns: null,
  http: null,
  tls: null,
  fileinfo: null,
  flow: null,
  anomaly: null,
};

describe('networkSummary', () => {
  it('DNS: the query and its answers', () => {
    const event: NetworkEventView = {
      ...base,
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
    };
    expect(networkSummary(event)).toEqual({
      main: 'A login.example.com',
      detail: '→ 198.51.100.1, 198.51.100.2',
      sha256: null,
    });
  });

  it('HTTP: method, host and URL, then status', () => {
    const event: NetworkEventView = {
      ...base,
      eventType: 'http',
      http: {
        hostname: 'example.com',
        url: '/a.exe',
        httpMethod: 'GET',
        status: 200,
        httpUserAgent: null,
        httpContentType: null,
        length: 10,
      },
    };
    expect(networkSummary(event)).toMatchObject({ main: 'GET example.com/a.exe', detail: '200' });
  });

  it('TLS: SNI and version', () => {
    const event: NetworkEventView = {
      ...base,
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
      },
    };
    expect(networkSummary(event)).toMatchObject({ main: 'cdn.example.net', detail: 'TLS 1.3' });
  });

  it('fileinfo: the name, its hash to link, type and size', () => {
    const sha256 = 'a'.repeat(64);
    const event: NetworkEventView = {
      ...base,
      eventType: 'fileinfo',
      fileinfo: { filename: '/invoice.exe', magic: 'PE32', size: 2048, md5: null, sha1: null, sha256, state: 'CLOSED' },
    };
    expect(networkSummary(event, 'en')).toEqual({ main: '/invoice.exe', detail: 'PE32 · 2 kB', sha256 });
  });

  it('alert: the signature, category and SID, whatever the type', () => {
    const event: NetworkEventView = {
      ...base,
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
        mitreTechniqueIds: [],
      },
    };
    expect(networkSummary(event)).toEqual({
      main: 'ET MALWARE Beacon',
      detail: 'A Network Trojan was detected · SID 2024217',
      sha256: null,
    });
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
