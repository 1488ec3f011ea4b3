import { endpoint, idParams, noContent, permission } from '../endpoint';
import {
  widgetCreateSchema,
  widgetDataRequestSchema,
  widgetDataSchema,
  widgetLayoutSchema,
  widgetListSchema,
  widgetSchema,
  widgetUpdateSchema,
} from '../widgets';

/** The caller's own dashboard: widgets each user adds, removes and arranges, and their chart data. */
const tag = 'widgets';

export const widgetEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/widgets/',
    summary: 'List the caller’s widgets',
    description: 'The caller’s widgets in dashboard order; the first read makes the default set.',
    tag,
    access: permission('widgets', 'view'),
    responses: { 200: widgetListSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/widgets/',
    summary: 'Add a widget',
    description: 'Appended at the end of the caller’s dashboard, which holds at most 30 widgets.',
    tag,
    access: permission('widgets', 'add'),
    body: widgetCreateSchema,
    responses: { 201: widgetSchema },
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/widgets/:id/',
    summary: 'Change a widget',
    tag,
    access: permission('widgets', 'change'),
    params: idParams,
    body: widgetUpdateSchema,
    responses: { 200: widgetSchema },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/widgets/:id/',
    summary: 'Remove a widget',
    description: 'The widgets after it close up.',
    tag,
    access: permission('widgets', 'delete'),
    params: idParams,
    responses: { 204: noContent },
  }),
  layout: endpoint({
    method: 'PUT',
    path: '/api/widgets/layout/',
    summary: 'Arrange the dashboard',
    description: 'Every widget of the caller’s dashboard once, in the new order, with its size.',
    tag,
    access: permission('widgets', 'change'),
    body: widgetLayoutSchema,
    responses: { 200: widgetListSchema },
  }),
  data: endpoint({
    method: 'POST',
    path: '/api/widgets/data/',
    summary: 'Chart data of a widget kind',
    description: 'Over a period of at most 366 days, bucketed in the caller’s time zone.',
    tag,
    access: permission('widgets', 'view'),
    readsOnly: true,
    body: widgetDataRequestSchema,
    responses: { 200: widgetDataSchema },
  }),
};
