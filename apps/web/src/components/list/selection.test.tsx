// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useSelection } from './selection';

interface Row {
  id: number;
}
const rows: Row[] = [1, 2, 3, 4, 5].map((id) => ({ id }));
const rowId = (row: Row) => row.id;

function setup(filterKey = 'a', count = 120) {
  return renderHook(
    (props: { filterKey: string; rows: Row[] }) =>
      useSelection({ rows: props.rows, rowId, count, filter: { status: 'new' }, filterKey: props.filterKey }),
    { initialProps: { filterKey, rows } },
  );
}

describe('list selection', () => {
  it('picks rows one by one and sends their ids', () => {
    const { result } = setup();
    act(() => result.current.toggle(2));
    act(() => result.current.toggle(4));
    expect(result.current.mode).toBe('some');
    expect(result.current.size).toBe(2);
    expect(result.current.asRequest()).toEqual({ ids: [2, 4] });
    act(() => result.current.toggle(2));
    expect(result.current.asRequest()).toEqual({ ids: [4] });
  });

  it('shift-picks the run of rows from the last one picked', () => {
    const { result } = setup();
    act(() => result.current.toggle(2));
    act(() => result.current.toggleRange(5));
    expect([...result.current.ids].sort()).toEqual([2, 3, 4, 5]);
  });

  it('selects every matching row by the filter, not by ids, and counts them all', () => {
    const { result } = setup();
    act(() => result.current.toggleLoaded());
    expect(result.current.allLoadedSelected).toBe(true);
    expect(result.current.size).toBe(5);
    act(() => result.current.selectAllMatching());
    expect(result.current.mode).toBe('all-matching');
    expect(result.current.size).toBe(120);
    expect(result.current.has(999)).toBe(true);
    expect(result.current.asRequest()).toEqual({ filter: { status: 'new' } });
    act(() => result.current.toggle(3));
    expect(result.current.mode).toBe('some');
    expect(result.current.asRequest()).toEqual({ ids: [3] });
  });

  it('is cleared when the filters change, so a bulk action never reaches rows no longer shown', () => {
    const { result, rerender } = setup();
    act(() => result.current.selectAllMatching());
    rerender({ filterKey: 'b', rows });
    expect(result.current.mode).toBe('none');
    expect(result.current.size).toBe(0);
  });
});
