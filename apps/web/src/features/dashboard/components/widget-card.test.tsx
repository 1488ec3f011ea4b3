// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from '../../../lib/router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as WidgetsApi from '../api/widgets';
import type { Widget, WidgetData } from '../api/widgets';
import { WidgetCard, type WidgetCardProps } from './widget-card';
import { setUpComponentTests } from '../../../test/component-tests';

const fetchWidgetData = vi.hoisted(() => vi.fn());
vi.mock('../api/widgets', async (original) => ({
  ...(await original<typeof WidgetsApi>()),
  fetchWidgetData,
}));

const widget = (id: number, kind: Widget['kind']): Widget => ({
  id,
  kind,
  size: 'half',
  position: id,
  settings: {},
  createdAt: '2025-01-10T00:00:00Z',
  updatedAt: '2025-01-10T00:00:00Z',
});

const hosts: WidgetData = {
  shape: 'categories',
  kind: 'top_hosts',
  total: 5,
  items: [
    { key: 'ws-01', value: 3, secondary: 12 },
    { key: 'db-02', value: 2, secondary: 0 },
  ],
};
const acknowledge: WidgetData = {
  shape: 'duration',
  kind: 'time_to_acknowledge',
  medianSeconds: 150,
  p90Seconds: 3_900,
  measured: 4,
  pending: 1,
};

function renderCards(widgets: Widget[], handlers: Partial<WidgetCardProps> = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const props: Omit<WidgetCardProps, 'widget' | 'index'> = {
    count: widgets.length,
    context: { from: '2025-01-10T00:00:00.000Z', to: '2025-01-11T00:00:00.000Z', companyId: 7, timeZone: 'UTC' },
    mayChange: true,
    mayRemove: true,
    dragging: false,
    dropTarget: false,
    onMove: vi.fn(),
    onResize: vi.fn(),
    onRemove: vi.fn(),
    onDragStart: vi.fn(),
    onDragOver: vi.fn(),
    onDrop: vi.fn(),
    onDragEnd: vi.fn(),
    ...handlers,
  };
  const wrap = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <MantineProvider>{children}</MantineProvider>
      </MemoryRouter>
    </QueryClientProvider>
  );
  return render(
    <>
      {widgets.map((w, index) => (
        <WidgetCard key={w.id} widget={w} index={index} {...props} />
      ))}
    </>,
    { wrapper: wrap },
  );
}

setUpComponentTests();
afterEach(() => {
  fetchWidgetData.mockReset();
});

describe('WidgetCard', () => {
  it('keeps a failing widget to itself and loads it again on retry', async () => {
    let hostsFail = true;
    fetchWidgetData.mockImplementation(async (request: { kind: string }) => {
      if (request.kind === 'top_hosts') {
        if (hostsFail) throw new Error('Service unavailable');
        return hosts;
      }
      return acknowledge;
    });
    renderCards([widget(1, 'top_hosts'), widget(2, 'time_to_acknowledge')]);

    // The widget tries once more by itself before it gives up.
    const failing = await screen.findByRole('alert', {}, { timeout: 5_000 });
    expect(failing.textContent).toContain('This widget could not be loaded.');
    // The other widget shows its figures: 150 s and 3,900 s in their two largest units.
    expect((await screen.findByTestId('duration-median')).textContent).toBe('2 min 30 s');
    expect(screen.getByText('1 h 5 min')).toBeTruthy();
    expect(screen.getByText('4 of 5 alerts measured')).toBeTruthy();

    hostsFail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    const row = await screen.findByText('ws-01');
    expect(screen.queryByRole('alert')).toBeNull();
    // A host leads to its endpoint events over the dashboard's period.
    expect(row.closest('a')?.getAttribute('href')).toBe(
      '/investigation/endpoint-events?host_name=ws-01&ts_from=2025-01-10T00%3A00%3A00.000Z&ts_to=2025-01-10T23%3A59%3A59.999Z',
    );
    expect(screen.getByText('alerts: 3 · events: 12')).toBeTruthy();
  });

  it('asks for the period, zone, company and row limit of the widget, and says when there is nothing', async () => {
    fetchWidgetData.mockResolvedValue({ shape: 'categories', kind: 'top_source_ips', total: 0, items: [] });
    renderCards([{ ...widget(3, 'top_source_ips'), settings: { limit: 5, title: 'Who talks most' } }]);
    expect(await screen.findByText('No network events in this period.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Who talks most' })).toBeTruthy();
    expect(fetchWidgetData.mock.calls[0]?.[0]).toEqual({
      kind: 'top_source_ips',
      from: '2025-01-10T00:00:00.000Z',
      to: '2025-01-11T00:00:00.000Z',
      timeZone: 'UTC',
      companyId: 7,
      limit: 5,
    });
  });
  it('names the dragged widget in the drag data, so a drop lands even before the page re-renders', async () => {
    fetchWidgetData.mockResolvedValue(acknowledge);
    const onDrop = vi.fn();
    const onDragStart = vi.fn();
    renderCards([widget(11, 'time_to_acknowledge'), widget(12, 'time_to_acknowledge')], { onDrop, onDragStart });
    const data = new Map<string, string>();
    const dataTransfer = {
      effectAllowed: 'none',
      dropEffect: 'none',
      setData: (type: string, value: string) => data.set(type, value),
      getData: (type: string) => data.get(type) ?? '',
      setDragImage: () => undefined,
    };
    const grips = screen.getAllByTestId('widget-grip');
    fireEvent.dragStart(grips[1]!, { dataTransfer });
    expect(onDragStart).toHaveBeenCalledWith(1);
    const cards = screen.getAllByTestId('widget');
    fireEvent.drop(cards[0]!, { dataTransfer });
    expect(onDrop).toHaveBeenCalledWith(0, 12);
    // A drop of something else (a file, text from another page) names no widget.
    data.clear();
    fireEvent.drop(cards[0]!, { dataTransfer });
    expect(onDrop).toHaveBeenLastCalledWith(0, null);
  });
});
