import type {
  Widget as WidgetWire,
  WidgetCreate,
  WidgetData as WidgetDataWire,
  WidgetDataRequest,
  WidgetKind,
  WidgetSettings,
  WidgetSize,
} from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import { call, type Camelize } from '../../../lib/http';

export type Widget = Camelize<WidgetWire>;
export type WidgetData = Camelize<WidgetDataWire>;

export const widgetKeys = {
  all: ['widgets'] as const,
  list: ['widgets', 'list'] as const,
  data: (request: Camelize<WidgetDataRequest>) => ['widgets', 'data', request] as const,
};

export const fetchWidgets = async (signal?: AbortSignal): Promise<Widget[]> =>
  (await call(endpoints.widgets.list, { signal })).results;

export const createWidget = (data: { kind: WidgetKind; size: WidgetSize; settings?: WidgetSettings }) =>
  call(endpoints.widgets.create, { body: data satisfies WidgetCreate, notifyErrors: false });

export const deleteWidget = (id: number) => call(endpoints.widgets.remove, { params: { id }, notifyErrors: false });

/** Saves the order and sizes of every widget at once. */
export const saveLayout = async (widgets: readonly Pick<Widget, 'id' | 'size'>[]): Promise<Widget[]> =>
  (
    await call(endpoints.widgets.layout, {
      body: { widgets: widgets.map(({ id, size }) => ({ id, size })) },
      notifyErrors: false,
    })
  ).results;

export const fetchWidgetData = (request: Camelize<WidgetDataRequest>, signal?: AbortSignal) =>
  call(endpoints.widgets.data, { body: request, signal, notifyErrors: false });
