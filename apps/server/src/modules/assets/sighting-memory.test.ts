import { describe, expect, it } from 'vitest';
import type { Observation } from './discovery-observations';
import { SightingMemory } from './sighting-memory';

const seen = (first: string, last: string, over: Partial<Observation> = {}): Observation => ({
  nameKey: 'ws-01',
  name: 'WS-01',
  fqdn: null,
  mac: null,
  agentId: null,
  ip: null,
  os: null,
  kind: 'workstation',
  source: 'endpoint:ws-01',
  first,
  last,
  ...over,
});

describe('SightingMemory', () => {
  it('covers the same facts within five minutes of the last check, and nothing else', () => {
    const memory = new SightingMemory();
    const at = seen('2026-11-20T10:00:00.000Z', '2026-11-20T10:00:00.000Z');
    expect(memory.covers(1, [at])).toBe(false);
    memory.remember(1, [at]);
    expect(memory.covers(1, [seen('2026-11-20T10:01:00.000Z', '2026-11-20T10:04:59.000Z')])).toBe(true);
    // Five minutes on, an earlier sighting, other facts, another company: each goes to the database.
    expect(memory.covers(1, [seen('2026-11-20T10:01:00.000Z', '2026-11-20T10:05:00.000Z')])).toBe(false);
    expect(memory.covers(1, [seen('2026-11-20T09:59:00.000Z', '2026-11-20T10:01:00.000Z')])).toBe(false);
    expect(memory.covers(1, [seen(at.first, at.last, { mac: '00:50:56:00:00:01' })])).toBe(false);
    expect(memory.covers(2, [at])).toBe(false);
    // An address seen again a minute later is covered; a lease that now runs a day longer is not.
    const ip = (until: string) => ({ ip: '10.0.0.5', source: 'dhcp' as const, until });
    memory.remember(1, [seen(at.first, at.last, { ip: ip('2026-11-21T10:00:00.000Z') })]);
    expect(
      memory.covers(1, [
        seen('2026-11-20T10:01:00.000Z', '2026-11-20T10:01:00.000Z', { ip: ip('2026-11-21T10:01:00.000Z') }),
      ]),
    ).toBe(true);
    expect(
      memory.covers(1, [
        seen('2026-11-20T10:01:00.000Z', '2026-11-20T10:01:00.000Z', { ip: ip('2026-11-22T10:01:00.000Z') }),
      ]),
    ).toBe(false);
    // A batch is covered only when all of it is.
    expect(memory.covers(1, [at, seen(at.first, at.last, { name: 'WS-02', nameKey: 'ws-02' })])).toBe(false);
    memory.clear();
    expect(memory.covers(1, [at])).toBe(false);
  });

  it('forgets everything rather than grow past its limit', () => {
    const memory = new SightingMemory(3);
    const at = (n: number) => seen('2026-11-20T10:00:00.000Z', '2026-11-20T10:00:00.000Z', { source: `eve:s${n}` });
    memory.remember(1, [at(1), at(2), at(3)]);
    expect(memory.covers(1, [at(1)])).toBe(true);
    memory.remember(1, [at(4)]);
    expect(memory.covers(1, [at(1)])).toBe(false);
    expect(memory.covers(1, [at(4)])).toBe(true);
  });
});
