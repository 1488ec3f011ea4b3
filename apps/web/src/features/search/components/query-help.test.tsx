// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { searchFields } from '@vigil/contract/query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { setUpComponentTests } from '../../../test/component-tests';
import { QueryHelp } from './query-help';

setUpComponentTests('ru');

describe('QueryHelp', () => {
  it('explains the language in the console’s language and puts a clicked example into the query box', async () => {
    const pick = vi.fn();
    render(
      <MantineProvider>
        <QueryHelp opened onClose={() => undefined} onPick={pick} kinds={['mail']} />
      </MantineProvider>,
    );
    const precedence = await screen.findByTestId('search-help-precedence');
    expect(precedence.textContent).toContain('Сильнее всего связывает not, затем and, затем or');
    expect(within(precedence).getAllByText('a or (b and c)')[0]!.tagName).toBe('CODE');
    fireEvent.click(within(screen.getByTestId('search-help-fieldValue')).getAllByTestId('search-help-example')[0]!);
    expect(pick).toHaveBeenCalledWith('host_name: WS-FIN-07');

    // The kinds chosen come first: every mail field with the type the console names it by.
    const table = screen.getByTestId('search-help-fields-mail');
    const rows = within(table).getAllByTestId('search-help-field');
    expect(rows).toHaveLength(Object.keys(searchFields.mail).length);
    expect(rows.find((row) => row.textContent?.startsWith('recipient'))?.textContent).toBe(
      'recipientзначениенесколько значенийсвободный текст',
    );
  });
});
