// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, initI18n } from '../i18n';
import { DateTimeInput, fromPickerValue, toPickerValue, VigilDatesProvider } from './date-time-input';

beforeAll(async () => {
  await initI18n('en');
});

afterEach(async () => {
  cleanup();
  await changeLanguage('en');
});

/** Opens the picker of a date field and answers the weekday headings of its calendar, in order. */
async function openWeekdays(): Promise<string[]> {
  fireEvent.click(screen.getByTestId('picker'));
  await waitFor(() => expect(document.querySelectorAll('thead th')).toHaveLength(7));
  return [...document.querySelectorAll('thead th')].map((cell) => cell.textContent?.trim() ?? '');
}

function Field() {
  return (
    <MantineProvider>
      <VigilDatesProvider>
        <DateTimeInput label="From" value="2026-11-25T10:30" onChange={() => undefined} data-testid="picker" />
      </VigilDatesProvider>
    </MantineProvider>
  );
}

describe('date pickers follow the interface language', () => {
  it('Russian weeks start on Monday', async () => {
    await act(() => changeLanguage('ru'));
    render(<Field />);
    const weekdays = await openWeekdays();
    expect(weekdays[0]?.toLowerCase()).toBe('пн');
    expect(weekdays[6]?.toLowerCase()).toBe('вс');
    // Month names come in Russian too.
    expect(document.body.textContent?.toLowerCase()).toContain('ноябрь');
  });

  it('English weeks start on Sunday', async () => {
    render(<Field />);
    const weekdays = await openWeekdays();
    expect(weekdays[0]).toBe('Su');
    expect(weekdays[1]).toBe('Mo');
  });

  it('switching the language while the console is open switches the calendar', async () => {
    render(<Field />);
    await act(() => changeLanguage('ru'));
    expect((await openWeekdays())[0]?.toLowerCase()).toBe('пн');
  });
});

describe('the value of a date field', () => {
  it('is the wall-clock time of a datetime-local field, both ways', () => {
    expect(toPickerValue('2026-11-25T10:30')).toBe('2026-11-25 10:30:00');
    expect(toPickerValue('2026-11-25T10:30:15')).toBe('2026-11-25 10:30:15');
    expect(toPickerValue('')).toBeNull();
    expect(fromPickerValue('2026-11-25 10:30:00')).toBe('2026-11-25T10:30');
    expect(fromPickerValue(null)).toBe('');
  });

  it('hands a cleared field back as empty', () => {
    const onChange = vi.fn();
    render(
      <MantineProvider>
        <VigilDatesProvider>
          <DateTimeInput label="From" value="2026-11-25T10:30" onChange={onChange} data-testid="picker" />
        </VigilDatesProvider>
      </MantineProvider>,
    );
    const clear = document.querySelector<HTMLButtonElement>('.mantine-InputClearButton-root');
    expect(clear).not.toBeNull();
    fireEvent.click(clear!);
    expect(onChange).toHaveBeenCalledWith('');
  });
});
