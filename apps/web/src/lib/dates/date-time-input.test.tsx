// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../i18n';
import { expectAnswers } from '../../test/answers';
import {
  DateTimeInput,
  fromPickerValue,
  parseDateTimeEntry,
  pickedValue,
  toPickerValue,
  VigilDatesProvider,
} from './date-time-input';
import { setUpComponentTests } from '../../test/component-tests';

setUpComponentTests();

afterEach(async () => {
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

/** A date field holding 25 November 2026, 10:30, in the current language; answers its input and what it hands back. */
function entryField(value = '2026-11-25T10:30') {
  const onChange = vi.fn();
  render(
    <MantineProvider>
      <VigilDatesProvider>
        <DateTimeInput label="From" value={value} onChange={onChange} data-testid="picker" />
      </VigilDatesProvider>
    </MantineProvider>,
  );
  return { input: screen.getByTestId('picker') as HTMLInputElement, onChange };
}

describe('a date field speaks the user’s format, shown and typed', () => {
  it('in Russian: DD.MM.YYYY, HH:mm, with the format as placeholder; a typed date is read in it', async () => {
    await act(() => changeLanguage('ru'));
    const { input, onChange } = entryField();
    expect(input.value).toBe('25.11.2026, 10:30');
    cleanup();
    const empty = entryField('');
    expect(empty.input.placeholder).toBe('ДД.ММ.ГГГГ, чч:мм');
    fireEvent.change(empty.input, { target: { value: '03.12.2026 09:05' } });
    expect(empty.onChange).toHaveBeenLastCalledWith('2026-12-03T09:05');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('in English: the console’s default YYYY-MM-DD HH:mm, never the US month first', () => {
    const { input, onChange } = entryField();
    expect(input.value).toBe('2026-11-25 10:30');
    expect(input.placeholder).toBe('YYYY-MM-DD hh:mm');
    fireEvent.change(input, { target: { value: '11/26/2026 09:15' } });
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '2026-11-26 09:15' } });
    expect(onChange).toHaveBeenLastCalledWith('2026-11-26T09:15');
  });

  it('a day picked in the calendar keeps the time the field held', async () => {
    const { input, onChange } = entryField();
    fireEvent.click(input);
    await waitFor(() => expect(document.querySelectorAll('thead th')).toHaveLength(7));
    const day = [...document.querySelectorAll<HTMLButtonElement>('button[data-day], table button')].find(
      (button) => button.textContent?.trim() === '20' && !button.hasAttribute('data-outside'),
    );
    expect(day).toBeDefined();
    fireEvent.click(day!);
    expect(onChange).toHaveBeenLastCalledWith('2026-11-20T10:30');
  });
});

describe('reading a typed date', () => {
  it('takes either entry format, seconds and the time optional', () => {
    expectAnswers(parseDateTimeEntry, [
      ['25.11.2026, 10:30', '2026-11-25 10:30:00'],
      [' 5.1.2026 9:07 ', '2026-01-05 09:07:00'],
      ['2026-11-25 10:30:15', '2026-11-25 10:30:15'],
      ['2026-11-25T10:30', '2026-11-25 10:30:00'],
      ['25.11.2026', '2026-11-25 00:00:00'],
    ]);
  });

  it('refuses what is not one of them, and days or times that do not exist', () => {
    for (const text of [
      '11/25/2026 10:30',
      '25.11.2026 10:3',
      '31.11.2026',
      '29.02.2027',
      '2026-13-01',
      '25.11.2026 24:00',
      '',
    ]) {
      expect(parseDateTimeEntry(text), text).toBeNull();
    }
    expect(parseDateTimeEntry('29.02.2028')).toBe('2028-02-29 00:00:00');
  });

  it('a calendar day takes the time already held, midnight when there was none', () => {
    expect(pickedValue('2026-11-20', '2026-11-25 10:30:00')).toBe('2026-11-20T10:30');
    expect(pickedValue('2026-11-20', null)).toBe('2026-11-20T00:00');
    expect(pickedValue('2026-11-20 08:00:00', '2026-11-25 10:30:00')).toBe('2026-11-20T08:00');
    expect(pickedValue(null, '2026-11-25 10:30:00')).toBe('');
  });
});
