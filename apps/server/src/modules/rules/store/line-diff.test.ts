import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './line-diff';

const labels: [string, string] = ['a', 'b'];

describe('unifiedDiff', () => {
  it('is empty for the same text', () => {
    expect(unifiedDiff('x\ny\n', 'x\ny\n', labels)).toBe('');
  });

  it('writes hunks with three lines of context, removed lines before added ones', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'].join('\n');
    const after = ['1', '2', '3', '4', 'five', '6', '7', '8', '9', '10', '11', '12', '13'].join('\n');
    expect(unifiedDiff(before, after, labels)).toBe(
      [
        '--- a',
        '+++ b',
        '@@ -2,7 +2,7 @@',
        ' 2',
        ' 3',
        ' 4',
        '-5',
        '+five',
        ' 6',
        ' 7',
        ' 8',
        '@@ -10,3 +10,4 @@',
        ' 10',
        ' 11',
        ' 12',
        '+13',
        '',
      ].join('\n'),
    );
  });

  it('names the line before an insertion or deletion at the top, as diff -u does', () => {
    expect(unifiedDiff('', 'a\nb\n', labels)).toBe('--- a\n+++ b\n@@ -0,0 +1,2 @@\n+a\n+b\n');
    expect(unifiedDiff('a\n', '', labels)).toBe('--- a\n+++ b\n@@ -1 +0,0 @@\n-a\n');
  });
});
