import { describe, expect, it } from 'vitest';
import { diffStats, parseUnifiedDiff } from './unified-diff';

describe('parseUnifiedDiff', () => {
  it('numbers the lines of each side and leaves the file headers out', () => {
    const diff = [
      '--- 1:2000001 revision 1',
      '+++ 1:2000001 revision 2',
      '@@ -1,3 +1,3 @@',
      ' title: one',
      '-level: low',
      '+level: high',
      ' status: test',
      '@@ -10,1 +10,2 @@',
      ' tail',
      '+-- added line starting with dashes',
      '\\ No newline at end of file',
      '',
    ].join('\n');
    const rows = parseUnifiedDiff(diff);
    expect(rows).toEqual([
      { kind: 'hunk', oldLine: null, newLine: null, text: '@@ -1,3 +1,3 @@' },
      { kind: 'context', oldLine: 1, newLine: 1, text: 'title: one' },
      { kind: 'removed', oldLine: 2, newLine: null, text: 'level: low' },
      { kind: 'added', oldLine: null, newLine: 2, text: 'level: high' },
      { kind: 'context', oldLine: 3, newLine: 3, text: 'status: test' },
      { kind: 'hunk', oldLine: null, newLine: null, text: '@@ -10,1 +10,2 @@' },
      { kind: 'context', oldLine: 10, newLine: 10, text: 'tail' },
      { kind: 'added', oldLine: null, newLine: 11, text: '-- added line starting with dashes' },
      { kind: 'note', oldLine: null, newLine: null, text: '\\ No newline at end of file' },
    ]);
    expect(diffStats(rows)).toEqual({ added: 2, removed: 1 });
  });

  it('gives no rows for an empty diff (the same text)', () => {
    expect(parseUnifiedDiff('')).toEqual([]);
  });
});
