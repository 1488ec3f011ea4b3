import { describe, expect, it } from 'vitest';
import { ancestorsOf, indexProcesses, parentKeys, visibleProcesses, type TreeProcess } from './process-tree';

const p = (key: string, parentKey: string | null): TreeProcess => ({ key, parentKey, start: '2024-01-01T00:00:00Z' });

// explorer ─┬ word ── powershell
//           └ notepad
// svchost (its parent is outside the window) ── rundll32
const processes = [
  p('explorer', null),
  p('word', 'explorer'),
  p('powershell', 'word'),
  p('notepad', 'explorer'),
  p('svchost', 'gone'),
  p('rundll32', 'svchost'),
];

describe('process tree rows', () => {
  it('lists parents before children, depth-first, with depth and sibling positions', () => {
    const rows = visibleProcesses(indexProcesses(processes), new Set());
    expect(rows.map((r) => [r.process.key, r.depth, r.position, r.siblings])).toEqual([
      ['explorer', 0, 1, 2],
      ['word', 1, 1, 2],
      ['powershell', 2, 1, 1],
      ['notepad', 1, 2, 2],
      ['svchost', 0, 2, 2],
      ['rundll32', 1, 1, 1],
    ]);
    expect(rows.find((r) => r.process.key === 'powershell')!.parentKey).toBe('word');
    expect(rows.filter((r) => r.hasChildren).map((r) => r.process.key)).toEqual(['explorer', 'word', 'svchost']);
  });

  it('hides the descendants of a collapsed process', () => {
    const rows = visibleProcesses(indexProcesses(processes), new Set(['word']));
    expect(rows.map((r) => r.process.key)).toEqual(['explorer', 'word', 'notepad', 'svchost', 'rundll32']);
    expect(rows.find((r) => r.process.key === 'word')).toMatchObject({ hasChildren: true, expanded: false });
    const none = visibleProcesses(indexProcesses(processes), parentKeys(indexProcesses(processes)));
    expect(none.map((r) => r.process.key)).toEqual(['explorer', 'svchost']);
  });

  it('finds the ancestors of a process and survives a cycle', () => {
    const index = indexProcesses(processes);
    expect(ancestorsOf(index, 'powershell')).toEqual(['word', 'explorer']);
    const cyclic = indexProcesses([p('a', 'b'), p('b', 'a'), p('c', null)]);
    expect(visibleProcesses(cyclic, new Set()).map((r) => r.process.key)).toEqual(['c']);
    expect(ancestorsOf(cyclic, 'a')).toEqual(['b', 'a']);
  });
});
