// @vitest-environment happy-dom
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from '../router';
import { describe, expect, it } from 'vitest';
import { useRouteId } from '.';

function idAt(path: string) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/items/:id" element={children} />
      </Routes>
    </MemoryRouter>
  );
  return renderHook(() => useRouteId(), { wrapper }).result.current;
}

describe('useRouteId', () => {
  it('reads a positive whole number', () => {
    expect(idAt('/items/42')).toEqual({ id: 42, valid: true });
  });

  it('refuses zero, negatives, fractions, words and numbers beyond safe integers', () => {
    for (const raw of ['0', '-3', '1.5', 'abc', '9007199254740993']) expect(idAt(`/items/${raw}`).valid).toBe(false);
  });
});
