// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../lib/unified-diff';
import { DiffView } from './rule-revisions';

afterEach(() => cleanup());

describe('the diff of two revisions', () => {
  it('draws each line with its old and new number, marked and coloured by what happened to it', () => {
    const diff = ['--- a', '+++ b', '@@ -4,3 +4,3 @@', ' status: test', '-level: low', '+level: high', ' tags:'].join(
      '\n',
    );
    render(<DiffView rows={parseUnifiedDiff(diff)} />);
    const rows = [...screen.getByTestId('rule-diff').querySelectorAll('.vigil-diff__row')];
    expect(rows.map((row) => row.getAttribute('data-kind'))).toEqual([
      'hunk',
      'context',
      'removed',
      'added',
      'context',
    ]);
    const cells = (row: Element) => [...row.children].map((cell) => cell.textContent);
    expect(cells(rows[1]!)).toEqual(['4', '4', ' status: test']);
    expect(cells(rows[2]!)).toEqual(['5', '', '-level: low']);
    expect(cells(rows[3]!)).toEqual(['', '5', '+level: high']);
    expect(cells(rows[4]!)).toEqual(['6', '6', ' tags:']);
  });
});
