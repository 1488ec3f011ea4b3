/**
 * Realistic ingest lines for the ingest benchmarks: Suricata EVE (flow, dns, http, tls, 5 %
 * alerts) and ECS endpoint events (process, network, file), each line's time an hour ago plus its
 * number in milliseconds.
 */
import { randomBytes } from 'node:crypto';

const base = Date.now() - 3_600_000;
const ip = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255 || 1}`;

/** Line `i` of EVE batch `batch` (batches of `batchLines` lines): flow, dns, http, tls and 5 % alerts. */
export function eveLine(batch: number, i: number, batchLines: number): string {
  const n = batch * batchLines + i;
  const common = {
    timestamp: new Date(base + n).toISOString().replace('Z', '+0000'),
    flow_id: 1_000_000_000_000 + n,
    in_iface: 'eth0',
    src_ip: ip(n % 60_000),
    src_port: 1024 + (n % 60_000),
    dest_ip: `203.0.113.${n % 250}`,
    dest_port: [80, 443, 53, 22][n % 4],
    proto: n % 4 === 2 ? 'UDP' : 'TCP',
    community_id: `1:${randomBytes(20).toString('base64').slice(0, 27)}=`,
    host: `sensor-${n % 4}`,
  };
  const kind = n % 20;
  if (kind === 0)
    return JSON.stringify({
      ...common,
      event_type: 'alert',
      alert: {
        action: 'allowed',
        gid: 1,
        signature_id: 2_024_000 + (n % 50),
        rev: 3,
        signature: `ET POLICY Suspicious outbound request ${n % 50}`,
        category: 'Potentially Bad Traffic',
        severity: (n % 3) + 1,
      },
      app_proto: 'http',
      http: { hostname: `host${n % 500}.example.net`, url: `/path/${n % 1000}`, http_method: 'GET', status: 200 },
    });
  if (kind < 6)
    return JSON.stringify({
      ...common,
      event_type: 'dns',
      dns: { type: 'query', id: n % 65_535, rrname: `name${n % 5000}.example.org`, rrtype: 'A', tx_id: 0 },
    });
  if (kind < 10)
    return JSON.stringify({
      ...common,
      event_type: 'http',
      http: {
        hostname: `host${n % 500}.example.net`,
        url: `/index/${n % 1000}.html`,
        http_user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)',
        http_method: 'GET',
        protocol: 'HTTP/1.1',
        status: 200,
        length: 5120,
      },
    });
  if (kind < 13)
    return JSON.stringify({
      ...common,
      event_type: 'tls',
      tls: { sni: `svc${n % 300}.example.com`, version: 'TLS 1.3', ja3: { hash: 'e7d705a3286e19ea42f587b344ee6865' } },
    });
  return JSON.stringify({
    ...common,
    event_type: 'flow',
    flow: {
      pkts_toserver: 12,
      pkts_toclient: 10,
      bytes_toserver: 1800,
      bytes_toclient: 9400,
      start: new Date(base + n - 1000).toISOString().replace('Z', '+0000'),
      end: new Date(base + n).toISOString().replace('Z', '+0000'),
      age: 1,
      state: 'closed',
      reason: 'timeout',
    },
  });
}

const binaryHashes = Array.from({ length: 5000 }, () => randomBytes(32).toString('hex'));

/** Line `i` of ECS batch `batch`: process, network and file events of 300 hosts. */
export function endpointLine(batch: number, i: number, batchLines: number): string {
  const n = batch * batchLines + i;
  return JSON.stringify({
    '@timestamp': new Date(base + n).toISOString(),
    host: { name: `WS-${n % 300}`, ip: [ip(n % 300)], os: { name: 'Windows 10' } },
    event: { action: n % 3 === 0 ? 'process-create' : n % 3 === 1 ? 'network-connection' : 'file-create', code: '1' },
    process: {
      pid: 4000 + (n % 1000),
      name: ['powershell.exe', 'chrome.exe', 'svchost.exe', 'outlook.exe'][n % 4],
      executable: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      command_line: `powershell.exe -NoProfile -Command Get-Item C:\\Users\\user${n % 50}`,
      parent: { pid: 1000, name: 'explorer.exe' },
      // A fleet runs a few thousand distinct binaries, not a new one per process.
      hash: { sha256: binaryHashes[n % binaryHashes.length] },
    },
    user: { name: `user${n % 50}`, domain: 'CORP' },
    network: n % 3 === 1 ? undefined : undefined,
    destination: n % 3 === 1 ? { ip: `198.51.100.${n % 250}`, port: 443 } : undefined,
    file: n % 3 === 2 ? { path: `C:\\Users\\user${n % 50}\\Downloads\\f${n}.tmp` } : undefined,
  });
}

/** A batch body of `batchLines` lines made by `make`. */
export function batchBody(
  make: (batch: number, i: number, batchLines: number) => string,
  batch: number,
  batchLines: number,
): string {
  return Array.from({ length: batchLines }, (_, i) => make(batch, i, batchLines)).join('\n');
}
