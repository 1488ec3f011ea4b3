import type { EndpointEvent, NetworkEvent } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../pipeline/stored-events';
import {
  isUsableAddress,
  kindOfOs,
  networksOf,
  observationsOf,
  splitHostName,
  splitOs,
} from './discovery-observations';

const TS = '2026-11-20T10:00:00.000Z';
const network = (event: Partial<NetworkEvent>): StoredEvent => ({
  kind: 'network',
  id: 1,
  ts: TS,
  companyId: 1,
  event: {
    event_type: 'flow',
    src_ip: null,
    dest_ip: null,
    host: 'sensor-1',
    dhcp: null,
    dns: null,
    ...event,
  } as NetworkEvent,
});
const endpoint = (event: Partial<EndpointEvent>): StoredEvent => ({
  kind: 'endpoint',
  id: 2,
  ts: TS,
  companyId: 1,
  event: { source_format: 'ecs', host: { name: null, ip: [], os: null }, raw: {}, ...event } as EndpointEvent,
});

describe('what events say about machines', () => {
  it('splits host names, operating systems and kinds', () => {
    expect(splitHostName('WS-01.corp.local.')).toEqual({ name: 'WS-01', nameKey: 'ws-01', fqdn: 'ws-01.corp.local' });
    expect(splitHostName('10.0.0.1')).toBeNull();
    expect(splitHostName('a b')).toBeNull();
    expect(splitOs('Windows 11 Pro 10.0.22631')).toEqual({ name: 'Windows 11 Pro', version: '10.0.22631' });
    expect(splitOs('Ubuntu')).toEqual({ name: 'Ubuntu', version: '' });
    expect(kindOfOs('Windows Server 2022')).toBe('server');
    expect(kindOfOs('Android 14')).toBe('mobile');
    expect(kindOfOs('Linux')).toBeNull();
    expect(isUsableAddress('127.0.0.1')).toBe(false);
    expect(isUsableAddress('fe80::1')).toBe(false);
    expect(isUsableAddress('10.0.0.1')).toBe(true);
  });

  it('matches addresses against the networks', () => {
    const nets = networksOf(['10.0.0.0/8', 'fd00::/8', 'nonsense']);
    expect(nets.has('10.2.3.4')).toBe(true);
    expect(nets.has('fd00::5')).toBe(true);
    expect(nets.has('192.168.0.1')).toBe(false);
    expect(networksOf([]).empty).toBe(true);
  });

  it('reads endpoint hosts with the ECS agent id and MACs', () => {
    const [first, ...rest] = observationsOf(
      [
        endpoint({
          host: { name: 'PC1', ip: ['10.0.0.5', '::1'], os: 'Windows 10 Pro 10.0.19045' },
          raw: { agent: { id: 'a-1' }, host: { mac: ['AA-BB-CC-DD-EE-01'] } },
        }),
      ],
      networksOf([]),
    );
    expect(first).toMatchObject({
      name: 'PC1',
      agentId: 'a-1',
      mac: 'aa:bb:cc:dd:ee:01',
      source: 'endpoint:a-1',
      kind: 'workstation',
    });
    expect(rest.map((o) => o.ip)).toEqual([{ ip: '10.0.0.5', source: 'endpoint', until: TS }]);
  });

  it('reads DHCP acknowledgements, DNS answers and flows inside the networks only', () => {
    const nets = networksOf(['10.0.0.0/8']);
    const dhcp = network({
      event_type: 'dhcp',
      dhcp: {
        dhcp_type: 'ack',
        client_mac: 'aa:00:00:00:00:01',
        assigned_ip: '10.0.0.9',
        hostname: 'pc9',
        lease_time: 60,
      } as NetworkEvent['dhcp'],
    });
    const dns = network({
      event_type: 'dns',
      dns: {
        type: 'answer',
        rrname: 'fs.corp',
        rrtype: 'A',
        rcode: null,
        answers: [
          { rrname: 'fs.corp', rrtype: 'A', ttl: 1, rdata: '10.0.0.20' },
          { rrname: 'ext.example', rrtype: 'A', ttl: 1, rdata: '93.184.216.34' },
        ],
      },
    });
    const flow = network({ event_type: 'flow', src_ip: '10.0.0.30', dest_ip: '8.8.8.8' });
    const seen = observationsOf([dhcp, dns, flow], nets);
    expect(seen.map((o) => [o.nameKey, o.mac, o.ip])).toEqual([
      ['pc9', 'aa:00:00:00:00:01', { ip: '10.0.0.9', source: 'dhcp', until: '2026-11-20T10:01:00.000Z' }],
      ['fs', null, { ip: '10.0.0.20', source: 'dns', until: TS }],
      [null, null, { ip: '10.0.0.30', source: 'flow', until: TS }],
    ]);
    expect(observationsOf([dns, flow], networksOf([]))).toEqual([]);
  });

  it('makes one observation of events that say the same, spanning their times', () => {
    const at = (ts: string) => ({ ...endpoint({ host: { name: 'PC2', ip: [], os: null } }), ts });
    const seen = observationsOf(
      [at('2026-11-20T10:00:05.5Z'), at('2026-11-20T09:59:59Z'), at('2026-11-20T10:00:05.25Z')],
      networksOf([]),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ first: '2026-11-20T09:59:59.000Z', last: '2026-11-20T10:00:05.500Z' });
  });
});
