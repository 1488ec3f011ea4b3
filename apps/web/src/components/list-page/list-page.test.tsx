// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useMemo, type ReactNode } from 'react';
import { MemoryRouter, useLocation } from '../../lib/router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '../../lib/http';
import { initI18n } from '../../lib/i18n';
import type { ListDefinition } from '../../lib/list';
import type { Column } from '../list/virtual-table';
import type { FilterField } from './filter-bar';
import { ListPage } from './list-page';
import { usePagedListPage, useScrolledListPage } from './use-list-page';

interface Thing {
  id: number;
  name: string;
  locked: boolean;
}

const thingList = {
  basename: 'units',
  endpoint: { path: '/api/things/check/' },
  filters: { search: 'string', kind: 'strings', active: 'boolean' },
  orderable: ['name', 'id'],
  defaultOrdering: 'name',
  pageSizes: [25, 50],
  defaultPageSize: 25,
} as const satisfies ListDefinition<{ search: 'string'; kind: 'strings'; active: 'boolean' }>;
type Filters = typeof thingList.filters;

const things: Thing[] = [
  { id: 1, name: 'alpha', locked: false },
  { id: 2, name: 'beta', locked: true },
  { id: 3, name: 'gamma', locked: false },
];
const answer = (rows: Thing[]) => ({ count: rows.length, next: null, previous: null, results: rows });

const post = vi.spyOn(http, 'post');

/** The address the page is at, so a test can read what the filters wrote into it. */
function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.search}</output>;
}

const columns: Column<Thing>[] = [
  { id: 'name', header: 'Name', width: 'minmax(200px, 1fr)', sortField: 'name', render: (row) => row.name },
];
const fields: FilterField<Filters>[] = [
  { kind: 'search', name: 'search', label: 'Search' },
  { kind: 'choice', name: 'kind', label: 'Kind', options: ['red', 'blue'] },
  {
    kind: 'segmented',
    name: 'active',
    label: 'State',
    options: [
      { value: undefined, label: 'All' },
      { value: true, label: 'Active' },
      { value: false, label: 'Inactive' },
    ],
    testId: 'state',
  },
];
const canSelect = (row: Thing) => !row.locked;
const rowLabel = (row: Thing) => `Select ${row.name}`;

function PagedThings({ onArchive }: { onArchive?: (ids: number[]) => void }) {
  const model = usePagedListPage<Thing, Filters>(thingList, { selectable: true, canSelect });
  return (
    <ListPage
      model={model}
      title="Things"
      filters={fields}
      table={{
        columns,
        label: 'Things',
        testId: 'things-table',
        rowTestId: 'thing-row',
        rowLabel,
        empty: 'Nothing here',
        loadFailed: 'The things could not be loaded.',
      }}
      bulkActions={
        <button
          type="button"
          onClick={() => onArchive?.(model.rows.filter((row) => model.selection.has(row.id)).map((row) => row.id))}
        >
          Archive
        </button>
      }
      selectAllMatching={false}
      footerTestId="things"
    />
  );
}

function ScrolledThings() {
  const model = useScrolledListPage<Thing, Filters>(thingList);
  const subtitle = useMemo(() => (model.count === undefined ? '' : `${model.count} matching`), [model.count]);
  return (
    <ListPage
      model={model}
      title="Things"
      subtitle={subtitle}
      filters={fields}
      table={{ columns, label: 'Things', testId: 'things-table', empty: 'Nothing here', loadFailed: 'Failed.' }}
    />
  );
}

function renderPage(page: ReactNode, at = '/things') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[at]}>
        <MantineProvider>
          {page}
          <Where />
        </MantineProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const where = () => new URLSearchParams(screen.getByTestId('where').textContent ?? '');

beforeAll(async () => {
  await initI18n('en');
  // No layout here: give every box the size a browser would, so the window of rows can be computed.
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 400 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 800 });
});
beforeEach(() => {
  post.mockReset();
  post.mockImplementation(async () => answer(things) as never);
});
afterEach(cleanup);

describe('ListPage', () => {
  it('reads the page the URL names and shows its rows and range', async () => {
    renderPage(<PagedThings />, '/things?ordering=-name&kind=red');
    await screen.findByText('alpha');
    expect(screen.getAllByTestId('thing-row')).toHaveLength(3);
    expect(screen.getByTestId('things-range').textContent).toBe('1–3 of 3');
    const [url, options] = post.mock.calls[0]!;
    expect(url).toBe('/api/things/check/');
    expect(options).toMatchObject({ params: { page: 1, pageSize: 25, ordering: '-name' }, data: { kind: ['red'] } });
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('descending');
  });

  it('writes filter changes into the URL and reads the list again with them', async () => {
    renderPage(<PagedThings />, '/things?page=2');
    await screen.findByText('alpha');

    const search = screen.getByRole('searchbox', { name: 'Search' });
    fireEvent.change(search, { target: { value: ' beta ' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    await waitFor(() => expect(where().get('search')).toBe('beta'));
    // A new filter goes back to the first page.
    expect(where().get('page')).toBeNull();
    await waitFor(() => expect(post.mock.calls.at(-1)?.[1]).toMatchObject({ data: { search: 'beta' } }));

    fireEvent.click(screen.getByTestId('state').querySelector('input[value="false"]')!);
    await waitFor(() => expect(where().get('active')).toBe('false'));
    await waitFor(() => expect(post.mock.calls.at(-1)?.[1]).toMatchObject({ data: { search: 'beta', active: false } }));

    fireEvent.click(screen.getByRole('button', { name: 'Reset filters' }));
    await waitFor(() => expect(where().toString()).toBe(''));
    expect((screen.getByRole('searchbox', { name: 'Search' }) as HTMLInputElement).value).toBe('');
  });

  it('orders by a column header through the URL', async () => {
    renderPage(<PagedThings />);
    await screen.findByText('alpha');
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(where().get('ordering')).toBe('-name'));
  });

  it('shows the load error with a way to try again', async () => {
    post.mockImplementationOnce(async () => {
      throw new Error('down');
    });
    renderPage(<PagedThings />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The things could not be loaded.');
    expect(screen.queryByText('alpha')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('alpha');
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('says so when nothing matches', async () => {
    post.mockImplementation(async () => answer([]) as never);
    renderPage(<PagedThings />);
    await screen.findByText('Nothing here');
    expect(screen.getByTestId('things-range').textContent).toBe('No records');
  });

  it('selects rows (never a locked one), shows the bulk bar and hands the selection to a bulk action', async () => {
    const onArchive = vi.fn();
    renderPage(<PagedThings onArchive={onArchive} />);
    await screen.findByText('alpha');
    expect(screen.queryByTestId('selection-count')).toBeNull();

    const locked = screen.getByRole('checkbox', { name: 'Select beta' }) as HTMLInputElement;
    expect(locked.disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select alpha' }));
    expect(screen.getByTestId('selection-count').textContent).toBe('1 selected');

    // "All loaded" picks the rows that may be picked.
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all loaded rows' }));
    expect(screen.getByTestId('selection-count').textContent).toBe('2 selected');
    expect(screen.queryByRole('button', { name: /Select all \d+ matching/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Archive' }));
    expect(onArchive).toHaveBeenCalledWith([1, 3]);

    // Another view starts with nothing selected.
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(screen.queryByTestId('selection-count')).toBeNull());
  });

  it('moves the keyboard cursor over the rows', async () => {
    renderPage(<PagedThings />);
    await screen.findByText('alpha');
    const table = screen.getByRole('table', { name: 'Things' });
    act(() => {
      fireEvent.keyDown(table, { key: 'ArrowDown' });
    });
    await waitFor(() => expect(screen.getAllByTestId('thing-row')[0]!.dataset.active).toBe('true'));
    act(() => {
      fireEvent.keyDown(table, { key: 'End' });
    });
    await waitFor(() => expect(screen.getAllByTestId('thing-row')[2]!.dataset.active).toBe('true'));
  });

  it('reads a scrolled list by cursor, with no page footer', async () => {
    post.mockImplementation(async () => ({ ...answer(things), count: 80 }) as never);
    renderPage(<ScrolledThings />);
    await screen.findByText('80 matching');
    expect(post.mock.calls[0]![1]).toMatchObject({ params: { pageSize: 25, ordering: 'name' } });
    expect(screen.queryByTestId('things-table-range')).toBeNull();
    expect(screen.getByRole('table', { name: 'Things' }).getAttribute('aria-rowcount')).toBe('81');
  });
});
