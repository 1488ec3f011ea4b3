import { describe, expect, it } from 'vitest';
import { toApiFilters } from '../api/alerts';
import { applyChange, buildBulkBody, cleanTags, toAlertUpdate } from './bulk';

describe('buildBulkBody', () => {
  it('sends picked alerts by id, each once', () => {
    expect(buildBulkBody({ ids: [3, 1, 3] }, { kind: 'assign', assigneeId: 7 })).toEqual({
      ids: [3, 1],
      action: { action: 'assign', assigneeId: 7 },
    });
  });

  it('sends "all matching" as the filter, never as ids', () => {
    const filter = toApiFilters({ status: ['new'], severity: ['high', 'critical'], search: 'beacon' }, 0);
    const body = buildBulkBody({ filter }, { kind: 'status', status: 'closed', resolution: 'false_positive' });
    expect(body).toEqual({
      filter: { status: ['new'], severity: ['high', 'critical'], search: 'beacon' },
      action: { action: 'set_status', status: 'closed', resolution: 'false_positive' },
    });
    expect('ids' in body).toBe(false);
  });

  it('needs a resolution to resolve or close, and none otherwise', () => {
    expect(() => buildBulkBody({ ids: [1] }, { kind: 'status', status: 'resolved' })).toThrow(/resolution/);
    expect(buildBulkBody({ ids: [1] }, { kind: 'status', status: 'in_progress', resolution: 'benign' }).action).toEqual(
      { action: 'set_status', status: 'in_progress' },
    );
  });

  it('unassigns with a null assignee and cleans tags', () => {
    expect(buildBulkBody({ ids: [1] }, { kind: 'assign', assigneeId: null }).action).toEqual({
      action: 'assign',
      assigneeId: null,
    });
    expect(
      buildBulkBody({ ids: [1] }, { kind: 'addTags', tags: [' phishing ', '', 'phishing', 'vip'] }).action,
    ).toEqual({ action: 'add_tags', tags: ['phishing', 'vip'] });
    expect(() => buildBulkBody({ ids: [1] }, { kind: 'removeTags', tags: ['  '] })).toThrow();
    expect(() => buildBulkBody({ ids: [] }, { kind: 'assign', assigneeId: 1 })).toThrow();
  });

  it('adds to an incident', () => {
    expect(buildBulkBody({ ids: [5] }, { kind: 'addToIncident', incidentId: 9 }).action).toEqual({
      action: 'add_to_incident',
      incidentId: 9,
    });
  });
});

describe('toApiFilters', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');

  it('turns a relative period into last_seen_from at the given moment', () => {
    expect(toApiFilters({ period: '24h', status: ['new'] }, now)).toEqual({
      status: ['new'],
      lastSeenFrom: '2026-11-21T12:00:00.000Z',
    });
  });

  it('lets a custom range win over a period and drops empty values', () => {
    expect(toApiFilters({ period: '1h', lastSeenFrom: '2026-11-01T00:00:00.000Z', tags: [], search: '' }, now)).toEqual(
      { lastSeenFrom: '2026-11-01T00:00:00.000Z' },
    );
    expect(toApiFilters({ period: 'forever' }, now)).toEqual({});
  });
});

describe('single-alert updates', () => {
  it('clears the resolution when reopening and merges tags', () => {
    expect(toAlertUpdate({ kind: 'status', status: 'new' }, [])).toEqual({ status: 'new', resolution: null });
    expect(toAlertUpdate({ kind: 'status', status: 'closed', resolution: 'benign' }, [])).toEqual({
      status: 'closed',
      resolution: 'benign',
    });
    expect(toAlertUpdate({ kind: 'addTags', tags: ['b', 'a'] }, ['a'])).toEqual({ tags: ['a', 'b'] });
    expect(toAlertUpdate({ kind: 'removeTags', tags: ['a'] }, ['a', 'b'])).toEqual({ tags: ['b'] });
    expect(cleanTags(['x'.repeat(101), 'ok'])).toEqual(['ok']);
  });
});

describe('applyChange', () => {
  const row = { id: 1, status: 'new' as const, resolution: null, assigneeId: null, tags: ['a'], incidentId: null };
  it('shows the row as the server will have it', () => {
    expect(applyChange(row, { kind: 'status', status: 'closed', resolution: 'benign' })).toMatchObject({
      status: 'closed',
      resolution: 'benign',
    });
    expect(
      applyChange({ ...row, status: 'closed', resolution: 'benign' }, { kind: 'status', status: 'new' }),
    ).toMatchObject({ status: 'new', resolution: null });
    expect(applyChange(row, { kind: 'assign', assigneeId: 4 }).assigneeId).toBe(4);
    expect(applyChange(row, { kind: 'addTags', tags: ['b', 'a'] }).tags).toEqual(['a', 'b']);
    expect(applyChange(row, { kind: 'removeTags', tags: ['a'] }).tags).toEqual([]);
    expect(applyChange(row, { kind: 'addToIncident', incidentId: 3 }).incidentId).toBe(3);
    expect(row.tags).toEqual(['a']);
  });
});
