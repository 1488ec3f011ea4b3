// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from '../../lib/router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { useSelection, type Selection } from './selection';
import { minimumWidth, useRowStrings, VirtualTable, type Column, type VirtualTableProps } from './virtual-table';

interface Row {
  id: number;
  name: string;
}
const rows: Row[] = Array.from({ length: 5000 }, (_, index) => ({ id: index + 1, name: `row ${index + 1}` }));
const columns: Column<Row>[] = [
  { id: 'id', header: 'Id', width: '80px', sortField: 'id', render: (row) => row.id },
  { id: 'name', header: 'Name', width: 'minmax(200px, 1fr)', render: (row) => row.name },
];
const wrap = ({ children }: { children: ReactNode }) => (
  <MemoryRouter>
    <MantineProvider>{children}</MantineProvider>
  </MemoryRouter>
);

/** The table of these tests: the rows above by id, 400px high, with whatever else a test gives it. */
const thingsTable = (props: Partial<VirtualTableProps<Row>> = {}) => (
  <VirtualTable rows={rows} rowKey={(row) => row.id} columns={columns} ariaLabel="Things" height={400} {...props} />
);

beforeAll(async () => {
  await initI18n('en');
  // No layout here: give every box the size a browser would, so the window of rows can be computed.
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 400 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 800 });
});
afterEach(cleanup);

describe('VirtualTable', () => {
  it('renders only a window of a long list, not every row', () => {
    render(thingsTable(), { wrapper: wrap });
    const table = screen.getByRole('table', { name: 'Things' });
    expect(table.getAttribute('aria-rowcount')).toBe('5001');
    const shown = screen.getAllByRole('row').length - 1;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(100);
    expect(screen.getByText('row 1')).toBeTruthy();
  });

  it('moves the keyboard cursor and opens the active row with Enter', () => {
    const onActive = vi.fn();
    const onOpen = vi.fn();
    const { rerender } = render(thingsTable({ onActiveIndexChange: onActive, onRowClick: onOpen }), { wrapper: wrap });
    const table = screen.getByRole('table');
    fireEvent.keyDown(table, { key: 'ArrowDown' });
    expect(onActive).toHaveBeenLastCalledWith(0);
    rerender(thingsTable({ activeIndex: 2, onActiveIndexChange: onActive, onRowClick: onOpen }));
    fireEvent.keyDown(table, { key: 'ArrowUp' });
    expect(onActive).toHaveBeenLastCalledWith(1);
    fireEvent.keyDown(table, { key: 'End' });
    expect(onActive).toHaveBeenLastCalledWith(4999);
    fireEvent.keyDown(table, { key: 'Enter' });
    expect(onOpen).toHaveBeenCalledWith(rows[2], 2, expect.anything());
    expect(screen.getByText('row 3').closest('[role="row"]')?.getAttribute('data-active')).toBe('true');
  });

  it('sorts from the header and asks for more rows near the end', () => {
    const onSort = vi.fn();
    const loadMore = vi.fn();
    render(thingsTable({ rows: rows.slice(0, 5), ordering: '-id', onSort, hasMore: true, loadMore }), {
      wrapper: wrap,
    });
    const header = screen.getByRole('columnheader', { name: /Id/ });
    expect(header.getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(screen.getByRole('button', { name: /Id/ }));
    expect(onSort).toHaveBeenCalledWith('id');
    expect(loadMore).toHaveBeenCalled();
    expect(screen.getByText('Loading more rows…')).toBeTruthy();
  });

  it('selects rows with their checkboxes and every loaded row from the header', () => {
    const few = rows.slice(0, 3);
    const { result } = renderHook(() =>
      useSelection({ rows: few, rowId: (row: Row) => row.id, count: 3, filter: {}, filterKey: '' }),
    );
    const view = () =>
      thingsTable({
        rows: few,
        selection: result.current,
        rowId: (row) => row.id,
        rowLabel: (row) => `Select ${row.name}`,
      });
    const { rerender } = render(view(), { wrapper: wrap });
    act(() => fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 2' })));
    expect([...result.current.ids]).toEqual([2]);
    rerender(view());
    act(() => fireEvent.click(screen.getByRole('checkbox', { name: 'Select all loaded rows' })));
    expect([...result.current.ids].sort()).toEqual([1, 2, 3]);
  });

  it('shows the empty state when nothing matches', () => {
    render(thingsTable({ rows: [], empty: 'No alerts' }), { wrapper: wrap });
    expect(screen.getByText('No alerts')).toBeTruthy();
  });
});

const noSelection: Selection<unknown> = {
  mode: 'none',
  ids: new Set(),
  size: 0,
  has: () => false,
  toggle: () => undefined,
  toggleRange: () => undefined,
  toggleLoaded: () => undefined,
  allLoadedSelected: false,
  selectAllMatching: () => undefined,
  clear: () => undefined,
  asRequest: () => ({ ids: [] }),
};

describe('rows while scrolling', () => {
  it('draws a row once: scrolling renders only the rows that come into view', () => {
    const drawn = new Map<number, number>();
    const counted: Column<Row>[] = [
      {
        id: 'name',
        header: 'Name',
        width: '200px',
        render: (row) => {
          drawn.set(row.id, (drawn.get(row.id) ?? 0) + 1);
          return row.name;
        },
      },
    ];
    const rowLabel = vi.fn((row: Row) => `Select ${row.id}`);
    render(thingsTable({ columns: counted, rowLabel, rowId: (row) => row.id, selection: noSelection }), {
      wrapper: wrap,
    });
    const scroller = screen.getByRole('table', { name: 'Things' });
    expect(drawn.get(1)).toBe(1);
    for (const top of [40, 80, 400, 440, 800]) {
      scroller.scrollTop = top;
      act(() => {
        fireEvent.scroll(scroller);
      });
    }
    expect(drawn.size).toBeGreaterThan(20);
    expect([...drawn.values()].every((times) => times === 1)).toBe(true);
    // The checkbox label of a row is asked for once, however often the table renders.
    const asked = new Map<number, number>();
    for (const [row] of rowLabel.mock.calls) asked.set(row.id, (asked.get(row.id) ?? 0) + 1);
    expect([...asked.values()].every((times) => times === 1)).toBe(true);
    expect(screen.getByRole('checkbox', { name: 'Select 21' })).toBeTruthy();
  });
});

describe('useRowStrings', () => {
  it("works out a row's strings once per row object and again for other functions", () => {
    const label = vi.fn((row: Row) => `Select ${row.id}`);
    const className = (row: Row) => (row.id % 2 ? 'odd' : undefined);
    const { result, rerender } = renderHook(({ l }) => useRowStrings(l, className), { initialProps: { l: label } });
    const row = rows[0]!;
    expect(result.current(row)).toEqual({ label: 'Select 1', className: 'odd', selectable: true });
    expect(result.current(row)).toBe(result.current(row));
    expect(label).toHaveBeenCalledTimes(1);
    rerender({ l: label });
    result.current(row);
    expect(label).toHaveBeenCalledTimes(1);
    const other = vi.fn((item: Row) => `Pick ${item.id}`);
    rerender({ l: other });
    expect(result.current(row).label).toBe('Pick 1');
  });
});

describe('minimumWidth', () => {
  it('adds the fixed part of every track so header and rows share one width', () => {
    expect(minimumWidth(['40px', '110px', 'minmax(240px, 1fr)', 'minmax( 120.5px ,2fr)', '1fr', 'auto'])).toBe(511);
    expect(minimumWidth([])).toBe(0);
  });
});
