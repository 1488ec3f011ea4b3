// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from '../router';
import { describe, expect, it } from 'vitest';
import { useListState, type ListDefinition } from './list';

const definition: ListDefinition<{ search: 'string' }> = {
  basename: 'alerts',
  endpoint: { path: '/api/alerts/check/' },
  filters: { search: 'string' },
  orderable: ['last_seen'],
  defaultOrdering: '-last_seen',
  pageSizes: [50],
  defaultPageSize: 50,
};
const wrap = ({ children }: { children: ReactNode }) => (
  <MemoryRouter initialEntries={['/alerts?search=beacon']}>{children}</MemoryRouter>
);

describe('useListState', () => {
  it('gives the same object while the URL stays, so memoised parts of a page skip renders', () => {
    const { result, rerender } = renderHook(() => useListState(definition), { wrapper: wrap });
    const first = result.current;
    expect(first.filters.search).toBe('beacon');
    rerender();
    expect(result.current).toBe(first);
    act(() => first.setFilters({ search: 'qakbot' }));
    expect(result.current).not.toBe(first);
    expect(result.current.filters.search).toBe('qakbot');
  });
});
