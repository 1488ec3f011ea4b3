import { describe, expect, it } from 'vitest';
import type { Observation } from './discovery-observations';
import { blankAsset, planDiscovery, type KnownAsset, type Pins } from './discovery-plan';

const noPins: Pins = { ip: new Map(), mac: new Map(), source: new Map() };
const T1 = '2026-11-20T10:00:00.000Z';
const T2 = '2026-11-20T11:00:00.000Z';

const seen = (o: Partial<Observation>): Observation => ({
  nameKey: null,
  name: null,
  fqdn: null,
  mac: null,
  agentId: null,
  ip: null,
  os: null,
  kind: null,
  source: 'eve:sensor',
  first: T1,
  last: T1,
  ...o,
});
const host = (name: string, o: Partial<Observation> = {}) => seen({ name, nameKey: name.toLowerCase(), ...o });
const known = (id: number, o: Partial<KnownAsset>): KnownAsset => ({
  ...blankAsset(`asset-${id}`, 'other'),
  id,
  nameKey: `asset-${id}`,
  firstSeen: T1,
  lastSeen: T1,
  ...o,
});

describe('planDiscovery', () => {
  it('makes one asset of observations joined by MAC and host name', () => {
    const plan = planDiscovery(
      [
        host('PC1', { mac: 'aa:00:00:00:00:01' }),
        seen({ mac: 'aa:00:00:00:00:01', ip: { ip: '10.0.0.5', source: 'dhcp', until: T2 } }),
        host('pc1', {
          ip: { ip: '10.0.0.6', source: 'endpoint', until: T2 },
          first: T2,
          last: T2,
          source: 'endpoint:pc1',
        }),
      ],
      [],
      noPins,
    );
    expect(plan.created).toHaveLength(1);
    expect(plan.created[0]).toMatchObject({
      name: 'PC1',
      ips: ['10.0.0.5', '10.0.0.6'],
      macs: ['aa:00:00:00:00:01'],
      sources: ['eve:sensor', 'endpoint:pc1'],
      firstSeen: T1,
      lastSeen: T2,
    });
    expect(plan.claims.map((c) => [c.ip, c.source, c.asset])).toEqual([
      ['10.0.0.5', 'dhcp', { created: 0 }],
      ['10.0.0.6', 'endpoint', { created: 0 }],
    ]);
  });

  it('matches by agent id before MAC, and MAC before host name', () => {
    const assets = [
      known(1, { name: 'pc1', nameKey: 'pc1' }),
      known(2, { macs: ['aa:00:00:00:00:02'] }),
      known(3, { agentId: 'agent-3' }),
    ];
    const byAgent = planDiscovery([host('pc1', { mac: 'aa:00:00:00:00:02', agentId: 'agent-3' })], assets, noPins);
    expect(byAgent.changed.map((a) => a.id)).toEqual([3]);
    const byMac = planDiscovery([host('pc1', { mac: 'aa:00:00:00:00:02' })], assets, noPins);
    expect(byMac.changed.map((a) => a.id)).toEqual([2]);
    const byName = planDiscovery([host('PC1', { first: T2, last: T2 })], assets, noPins);
    expect(byName.changed).toMatchObject([{ id: 1, lastSeen: T2 }]);
  });

  it('changes nothing when the observations are already known', () => {
    const first = planDiscovery([host('pc1', { ip: { ip: '10.0.0.5', source: 'endpoint', until: T1 } })], [], noPins);
    const asset = { ...first.created[0]!, id: 7, nameKey: 'pc1' };
    const again = planDiscovery(
      [host('pc1', { ip: { ip: '10.0.0.5', source: 'endpoint', until: T1 } })],
      [asset],
      noPins,
    );
    expect(again.created).toEqual([]);
    expect(again.changed).toEqual([]);
  });

  it('moves an address a machine claims off the asset that held it before', () => {
    const plan = planDiscovery(
      [
        seen({
          mac: 'bb:00:00:00:00:01',
          nameKey: 'new',
          name: 'new',
          ip: { ip: '10.0.0.9', source: 'dhcp', until: T2 },
        }),
      ],
      [known(1, { ips: ['10.0.0.9'], macs: ['bb:00:00:00:00:09'] })],
      noPins,
    );
    expect(plan.created[0]!.ips).toEqual(['10.0.0.9']);
    expect(plan.changed).toMatchObject([{ id: 1, ips: [] }]);
  });

  it('puts flow-only addresses on their holder, or on a new asset named by the address', () => {
    const flow = (ip: string) => seen({ ip: { ip, source: 'flow', until: T1 }, kind: 'other' });
    const plan = planDiscovery(
      [flow('10.0.0.1'), flow('10.0.0.2'), flow('10.0.0.2')],
      [known(1, { ips: ['10.0.0.1'] })],
      noPins,
    );
    expect(plan.created).toMatchObject([{ name: '10.0.0.2', kind: 'other', ips: ['10.0.0.2'] }]);
    expect(plan.claims.map((c) => [c.ip, c.asset])).toEqual([
      ['10.0.0.1', { id: 1 }],
      ['10.0.0.2', { created: 0 }],
    ]);
  });

  it('keeps what a split pinned on the asset it went to', () => {
    const assets = [
      known(1, { name: 'pc1', nameKey: 'pc1', ips: ['10.0.0.1'] }),
      known(2, { name: 'pc1-dock', nameKey: 'pc1-dock', ips: ['10.0.0.2'] }),
    ];
    const pins: Pins = { ip: new Map([['10.0.0.2', 2]]), mac: new Map([['cc:00:00:00:00:02', 2]]), source: new Map() };
    const plan = planDiscovery(
      [host('pc1', { mac: 'cc:00:00:00:00:01', ip: { ip: '10.0.0.2', source: 'dhcp', until: T2 } })],
      assets,
      pins,
    );
    const pc1 = plan.changed.find((a) => a.id === 1)!;
    expect(pc1.ips).toEqual(['10.0.0.1']);
    expect(plan.claims).toMatchObject([{ ip: '10.0.0.2', asset: { id: 2 } }]);
    const byMac = planDiscovery([host('pc1', { mac: 'cc:00:00:00:00:02' })], assets, pins);
    expect(byMac.changed.map((a) => a.id)).toEqual([2]);
  });

  it('gives an address-named asset the name of the machine found holding its address', () => {
    const plan = planDiscovery(
      [host('lab', { mac: 'dd:00:00:00:00:01', ip: { ip: '10.0.0.7', source: 'dhcp', until: T2 } })],
      [known(4, { name: '10.0.0.7', nameKey: null, ips: ['10.0.0.7'] })],
      noPins,
    );
    expect(plan.created).toEqual([]);
    expect(plan.changed).toMatchObject([{ id: 4, name: 'lab', macs: ['dd:00:00:00:00:01'] }]);
  });
});
