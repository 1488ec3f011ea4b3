import { describe, expect, it } from 'vitest';
import { parseEndpointRecords } from './endpoint-records';
import { isInventoryRecord, readInventory } from './inventory';

const osquery = (name: string, columns: object, extra: object = {}) => ({
  name,
  hostIdentifier: 'web-01',
  calendarTime: 'Fri Nov 20 08:00:00 2026 UTC',
  unixTime: 1_795_161_600,
  epoch: 0,
  counter: 1,
  numerics: false,
  columns,
  action: 'added',
  ...extra,
});

describe('software inventory lines', () => {
  it('reads an ECS package document, dotted or nested', () => {
    const nested = {
      '@timestamp': '2026-11-20T08:00:00Z',
      host: { name: 'ws-7' },
      event: { dataset: 'system.package', action: 'existing_package', category: ['package'] },
      package: { name: 'openssl', version: '3.0.2-0ubuntu1.10', type: 'deb', installed: '2026-01-02T03:04:05Z' },
    };
    expect(isInventoryRecord(nested)).toBe(true);
    expect(readInventory(nested)).toEqual([
      {
        host_name: 'ws-7',
        vendor: '',
        name: 'openssl',
        version: '3.0.2-0ubuntu1.10',
        source: 'ecs',
        seen_at: '2026-11-20T08:00:00Z',
        installed_at: '2026-01-02T03:04:05Z',
        removed: false,
      },
    ]);
    const dotted = {
      'host.name': 'ws-7',
      'package.name': 'curl',
      'event.action': 'package_removed',
      'package.vendor': 'Debian',
    };
    expect(readInventory(dotted)[0]).toMatchObject({ name: 'curl', vendor: 'Debian', removed: true, version: '' });
  });

  it('reads the osquery programs, deb_packages, rpm_packages and apps tables', () => {
    expect(
      readInventory(
        osquery('pack_inventory_programs', { name: '7-Zip 23.01 (x64)', version: '23.01', publisher: 'Igor Pavlov' }),
      ),
    ).toEqual([
      expect.objectContaining({
        host_name: 'web-01',
        name: '7-Zip 23.01 (x64)',
        version: '23.01',
        vendor: 'Igor Pavlov',
        source: 'osquery_programs',
        seen_at: '2026-11-20T08:00:00Z',
      }),
    ]);
    expect(
      readInventory(
        osquery('deb_packages', {
          name: 'bash',
          version: '5.1-6ubuntu1',
          maintainer: 'Ubuntu Developers <ubuntu-devel-discuss@lists.ubuntu.com>',
          arch: 'amd64',
        }),
      )[0],
    ).toMatchObject({ vendor: 'Ubuntu Developers', source: 'osquery_deb_packages' });
    expect(
      readInventory(
        osquery('rpms', { name: 'bash', version: '5.1.8', release: '6.el9', vendor: 'Red Hat, Inc.', arch: 'x86_64' }),
      )[0],
    ).toMatchObject({ version: '5.1.8-6.el9', vendor: 'Red Hat, Inc.', source: 'osquery_rpm_packages' });
    expect(
      readInventory(
        osquery('pack/mac/apps', {
          name: 'Slack.app',
          bundle_short_version: '4.41.97',
          bundle_identifier: 'com.tinyspeck.slackmacgap',
        }),
      )[0],
    ).toMatchObject({ name: 'Slack.app', version: '4.41.97', source: 'osquery_apps' });
    expect(readInventory(osquery('programs', { name: 'Old', version: '1' }, { action: 'removed' }))[0]!.removed).toBe(
      true,
    );
  });

  it('reads snapshots and batched differential results', () => {
    const snapshot = {
      name: 'programs',
      hostIdentifier: 'h',
      unixTime: '1795161600',
      action: 'snapshot',
      snapshot: [
        { name: 'A', version: '1', publisher: 'X' },
        { name: 'B', version: '2', publisher: 'Y' },
      ],
    };
    expect(readInventory(snapshot).map((i) => i.name)).toEqual(['A', 'B']);
    const batch = {
      name: 'deb_packages',
      hostIdentifier: 'h',
      unixTime: 1_795_161_600,
      diffResults: { added: [{ name: 'new', version: '2' }], removed: [{ name: 'new', version: '1' }] },
    };
    expect(readInventory(batch).map((i) => [i.version, i.removed])).toEqual([
      ['2', false],
      ['1', true],
    ]);
  });

  it('refuses inventory lines it cannot use, with the reason, and leaves events alone', () => {
    const body = [
      JSON.stringify(osquery('processes', { pid: '1', name: 'init' })),
      JSON.stringify(osquery('programs', { version: '1' })),
      JSON.stringify({ ...osquery('programs', { name: 'x' }), hostIdentifier: '' }),
      JSON.stringify({ package: { name: 'x' } }),
      JSON.stringify({ host: { name: 'h' }, package: { version: '1' } }),
      JSON.stringify({ host: { name: 'h' }, package: { name: { nested: true } } }),
      '\u0000\u00ff binary',
      JSON.stringify({
        '@timestamp': '2026-11-20T08:00:00Z',
        host: { name: 'h' },
        event: { action: 'process-created' },
        process: { name: 'a.exe' },
        package: { name: 'x' },
      }),
    ].join('\n');
    const results = parseEndpointRecords(body);
    expect(results).toHaveLength(8);
    const reasons = results.map((r) => (r.ok ? r.event.kind : r.reason));
    expect(reasons[0]).toContain('not a software inventory');
    expect(reasons[1]).toContain('needs a name');
    expect(reasons[2]).toContain('names no host');
    expect(reasons[3]).toContain('names no host');
    expect(reasons[4]).toContain('names no package');
    expect(reasons[5]).toContain('package.name must be text');
    expect(reasons[6]).toMatch(/^line 7: /);
    expect(reasons[7]).toBe('event');
  });
});
