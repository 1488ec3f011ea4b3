import type {
  Widget as WidgetWire,
  WidgetCreate,
  WidgetData as WidgetDataWire,
  WidgetDataRequest,
  WidgetKind,
  WidgetList,
  WidgetSettings,
  WidgetSize,
} from '@vigil/contract';
import { http, type Camelize } from '../../../lib/http';

export type Widget = Camelize<WidgetWire>;
export type WidgetData = Camelize<WidgetDataWire>;

export const widgetKeys = {
  all: ['widgets'] as const,
  list: ['widgets', 'list'] as const,
  data: (request: Camelize<WidgetDataRequest>) => ['widgets', 'data', request] as const,
};

export const fetchWidgets = async (signal?: AbortSignal): Promise<Widget[]> =>
  (await http.get<WidgetList>('/api/widgets/', { signal })).results;

export const createWidget = (data: { kind: WidgetKind; size: WidgetSize; settings?: WidgetSettings }) =>
  http.post<WidgetWire>('/api/widgets/', { data: data satisfies WidgetCreate, notifyErrors: false });

export const deleteWidget = (id: number) => http.delete<void>(`/api/widgets/${id}/`, { notifyErrors: false });

/** Saves the order and sizes of every widget at once. */
export const saveLayout = async (widgets: readonly Pick<Widget, 'id' | 'size'>[]): Promise<Widget[]> =>
  (
    await http.put<WidgetList>('/api/widgets/layout/', {
      data: { widgets: widgets.map(({ id, size }) => ({ id, size })) },
      notifyErrors: false,
    })
  ).results;

export const fetchWidgetData = (request: Camelize<WidgetDataRequest>, signal?: AbortSignal) =>
  http.post<WidgetDataWire>('/api/widgets/data/', { data: request, signal, notifyErrors: false });
