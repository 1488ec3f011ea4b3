// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../../lib/i18n';
import { SlaCell, SlaTimerCard } from './sla-timer';
import { setUpComponentTests } from '../../../test/component-tests';

const wrap = ({ children }: { children: ReactNode }) => <MantineProvider>{children}</MantineProvider>;
const now = Date.parse('2026-11-22T12:00:00Z');
const timer = (dueAt: string, doneAt: string | null, targetMinutes = 60) => ({
  targetMinutes,
  dueAt,
  doneAt,
  elapsedMinutes: 0,
  breached: false,
});

setUpComponentTests();
afterEach(async () => {
  await changeLanguage('en');
});

describe('SlaTimerCard', () => {
  it('counts the time left down to the second while the timer runs', () => {
    const { rerender } = render(
      <SlaTimerCard which="acknowledge" timer={timer('2026-11-22T12:15:00Z', null, 15)} now={now} />,
      { wrapper: wrap },
    );
    expect(screen.getByTestId('sla-acknowledge-text').textContent).toBe('15m 00s left');
    expect(screen.getByText('Target 15m')).toBeTruthy();
    rerender(<SlaTimerCard which="acknowledge" timer={timer('2026-11-22T12:15:00Z', null, 15)} now={now + 1000} />);
    expect(screen.getByTestId('sla-acknowledge-text').textContent).toBe('14m 59s left');
    expect(screen.getByTestId('sla-acknowledge').dataset.breached).toBeUndefined();
  });

  it('shows a breached timer in red with how long ago it was due', () => {
    render(<SlaTimerCard which="resolve" timer={timer('2026-11-22T10:30:00Z', null, 240)} now={now} />, {
      wrapper: wrap,
    });
    const card = screen.getByTestId('sla-resolve');
    expect(card.dataset.breached).toBe('true');
    expect(card.dataset.state).toBe('overdue');
    const text = screen.getByTestId('sla-resolve-text');
    expect(text.textContent).toBe('Breached 1h 30m 00s ago');
    expect(text.getAttribute('style')).toContain('var(--vigil-status-red)');
  });

  it('stops when the timer is done', () => {
    render(
      <SlaTimerCard
        which="acknowledge"
        timer={timer('2026-11-22T12:15:00Z', '2026-11-22T12:05:00Z', 15)}
        now={now + 3_600_000}
      />,
      { wrapper: wrap },
    );
    expect(screen.getByTestId('sla-acknowledge-text').textContent).toBe('Met in time');
  });

  it('speaks Russian', async () => {
    await changeLanguage('ru');
    render(<SlaTimerCard which="acknowledge" timer={timer('2026-11-22T13:05:00Z', null, 65)} now={now} />, {
      wrapper: wrap,
    });
    expect(screen.getByTestId('sla-acknowledge-text').textContent).toBe('Осталось 1ч 05мин 00с');
  });
});

describe('SlaCell', () => {
  it('follows the acknowledgement timer until it stops, then the resolution timer', () => {
    const sla = {
      acknowledge: timer('2026-11-22T11:00:00Z', '2026-11-22T10:50:00Z', 15),
      resolve: timer('2026-11-22T11:30:00Z', null, 240),
    };
    const { container } = render(<SlaCell sla={sla} now={now} />, { wrapper: wrap });
    const cell = container.querySelector('.vigil-incident-sla-cell');
    expect(cell?.textContent).toBe('Breached 30m 00s ago');
    expect(cell?.hasAttribute('data-breached')).toBe(true);
  });
});
