// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { useRowDelete } from './row-delete';

interface Thing {
  id: number;
  name: string;
}

function Page({ remove }: { remove: (id: number) => Promise<unknown> }) {
  const removal = useRowDelete<Thing>({
    remove,
    invalidate: [['things']],
    title: 'Delete thing',
    question: (thing) => `Delete ${thing.name}?`,
    deleted: (thing) => `${thing.name} deleted`,
  });
  return (
    <>
      <button type="button" onClick={() => removal.ask({ id: 7, name: 'seven' })}>
        ask
      </button>
      {removal.dialog}
    </>
  );
}

beforeAll(async () => {
  await initI18n('en');
});
afterEach(cleanup);

describe('useRowDelete', () => {
  it('asks about the row, deletes it by id once confirmed and refreshes the queries that show it', async () => {
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const remove = vi.fn(() => Promise.resolve(undefined));
    render(
      <QueryClientProvider client={client}>
        <MantineProvider>
          <Page remove={remove} />
        </MantineProvider>
      </QueryClientProvider>,
    );
    expect(screen.queryByText('Delete seven?')).toBeNull();
    fireEvent.click(screen.getByText('ask'));
    await screen.findByText('Delete seven?');
    expect(remove).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('confirm'));
    await waitFor(() => expect(remove).toHaveBeenCalledWith(7));
    await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: ['things'] }));
  });
});
