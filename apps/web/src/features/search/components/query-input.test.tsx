// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { SearchKind } from '@vigil/contract/query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { setUpComponentTests } from '../../../test/component-tests';
import type * as searchApi from '../api/search';
import type { KnownValuesAsk } from '../api/search';
import { QueryInput } from './query-input';

const asked: KnownValuesAsk[] = [];

vi.mock('../api/search', async (original) => ({
  ...(await original<typeof searchApi>()),
  searchValues: (ask: KnownValuesAsk) => {
    asked.push(ask);
    return Promise.resolve([
      [
        { value: 'NT AUTHORITY\\SYSTEM', count: 12 },
        { value: 'jdoe', count: 3 },
      ],
    ]);
  },
}));

setUpComponentTests();

// The autosized box listens for web fonts loading, which the test document does not have.
beforeAll(() => {
  if (!('fonts' in document)) {
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener: () => undefined, removeEventListener: () => undefined },
    });
  }
});

const RANGE = { from: '2026-11-28T00:00:00.000Z', to: '2026-11-29T00:00:00.000Z' };

function Box({ kinds }: { kinds: readonly SearchKind[] }) {
  const [value, setValue] = useState('');
  return (
    <QueryClientProvider client={new QueryClient()}>
      <MantineProvider>
        <QueryInput
          value={value}
          onChange={setValue}
          onRun={() => undefined}
          kinds={kinds}
          problem={null}
          range={RANGE}
        />
      </MantineProvider>
    </QueryClientProvider>
  );
}

const box = () => screen.getByTestId('search-query') as HTMLTextAreaElement;

describe('QueryInput', () => {
  it('offers the values seen after field:, with their counts, and puts one in quoted as needed', async () => {
    render(<Box kinds={['endpoint']} />);
    fireEvent.change(box(), { target: { value: 'user_name: ' } });
    const offered = await screen.findAllByTestId('search-suggestion');
    expect(offered.map((option) => option.textContent)).toEqual(['NT AUTHORITY\\SYSTEM12', 'jdoe3']);
    expect(asked.at(-1)).toEqual({ kinds: ['endpoint'], field: 'user_name', prefix: '', ...RANGE });
    fireEvent.click(offered[0]!);
    await waitFor(() => expect(box().value).toBe('user_name: "NT AUTHORITY\\\\SYSTEM" '));
  });

  it('asks for what is typed, and not for fields whose values are not suggested', async () => {
    render(<Box kinds={['endpoint']} />);
    fireEvent.change(box(), { target: { value: 'user_name: jd' } });
    await waitFor(() => expect(asked.at(-1)?.prefix).toBe('jd'));
    const count = asked.length;
    fireEvent.change(box(), { target: { value: 'command_line: jd' } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(asked).toHaveLength(count);
  });
});
