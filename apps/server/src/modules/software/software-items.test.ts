import type { EndpointEvent } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import type { SoftwareInventoryItem } from '../ingest/parsers';
import type { StoredEvent } from '../pipeline/stored-events';
import { fileVersion, foldSoftware, productKey, softwareOfProcesses } from './software-items';

const item = (over: Partial<SoftwareInventoryItem>): SoftwareInventoryItem => ({
  host_name: 'WS-1',
  vendor: 'Mozilla',
  name: 'Firefox',
  version: '120.0',
  source: 'ecs',
  seen_at: '2026-11-20T08:00:00.000Z',
  installed_at: null,
  removed: false,
  ...over,
});

describe('software items', () => {
  it('keys a product however it is spaced or capitalised', () => {
    expect(productKey(' Mozilla ', 'Mozilla  Firefox')).toBe(productKey('mozilla', 'MOZILLA FIREFOX'));
    expect(productKey('', 'bash')).not.toBe(productKey('GNU', 'bash'));
    expect(fileVersion('10.0.19041.1 (WinBuild.160101.0800)')).toBe('10.0.19041.1');
  });

  it('folds a batch into one product, version and install each, the latest report deciding presence', () => {
    const folded = foldSoftware(
      [
        item({ seen_at: '2026-11-20T09:00:00.000Z', removed: true }),
        item({ host_name: 'ws-1', seen_at: '2026-11-20T08:00:00.000Z', installed_at: '2026-01-01T00:00:00.000Z' }),
        item({ host_name: 'WS-2', version: '121.0', seen_at: null }),
      ],
      '2026-11-21T00:00:00.000Z',
    );
    expect(folded.products).toHaveLength(1);
    expect(folded.products[0]!.first_seen).toBe('2026-01-01T00:00:00.000Z');
    expect(folded.versions.map((v) => v.version)).toEqual(['120.0', '121.0']);
    expect(folded.installs).toHaveLength(2);
    expect(folded.installs[0]).toMatchObject({
      host_key: 'ws-1',
      first_seen: '2026-01-01T00:00:00.000Z',
      last_seen: '2026-11-20T09:00:00.000Z',
      removed_at: '2026-11-20T09:00:00.000Z',
    });
    expect(folded.installs[1]).toMatchObject({
      host_key: 'ws-2',
      last_seen: '2026-11-21T00:00:00.000Z',
      removed_at: null,
    });
  });

  it('takes products from the process creations that carry them', () => {
    const event = (action: string, data: Record<string, string>) =>
      ({
        kind: 'endpoint',
        id: 1,
        ts: '2026-11-20T08:00:00.000Z',
        companyId: 1,
        event: {
          host: { name: 'WS-1', ip: [], os: null },
          event: { action },
          event_data: data,
        } as unknown as EndpointEvent,
      }) satisfies StoredEvent;
    const items = softwareOfProcesses([
      event('process-create', {
        Product: 'Microsoft® Windows® Operating System',
        FileVersion: '10.0.19041.1 (WinBuild.160101.0800)',
        Company: 'Microsoft Corporation',
      }),
      event('process-create', { Product: '-', FileVersion: '-', Company: '-' }),
      event('network-connection', { Product: 'X' }),
    ]);
    expect(items).toEqual([
      expect.objectContaining({
        name: 'Microsoft® Windows® Operating System',
        version: '10.0.19041.1',
        vendor: 'Microsoft Corporation',
        source: 'process',
      }),
    ]);
  });
});
