import {
  alertBulkAnswerSchema,
  alertBulkSchema,
  alertCommentSchema,
  alertDetailSchema,
  alertFiltersSchema,
  alertLinkedEventsSchema,
  alertSchema,
  alertUpdateSchema,
  commentCreateSchema,
} from '../alerts';
import { endpoint, idParams, listEndpoints, permission } from '../endpoint';

/** The alert queue: triage of one alert, its comments and linked events, and bulk actions. */
const view = permission('alerts', 'view');
const change = permission('alerts', 'change');
const tag = 'alerts';

export const alertEndpoints = {
  ...listEndpoints({
    base: '/api/alerts/',
    tag,
    noun: 'alert',
    item: alertSchema,
    filters: alertFiltersSchema,
    access: view,
    orderings: ['last_seen', 'first_seen', 'severity', 'count', 'id'],
    defaultOrdering: ['-last_seen'],
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/alerts/:id/',
    summary: 'Read an alert',
    description: 'The alert with its first linked event references, its comments and its history.',
    tag,
    access: view,
    params: idParams,
    responses: { 200: alertDetailSchema },
  }),
  events: endpoint({
    method: 'GET',
    path: '/api/alerts/:id/events/',
    summary: 'Read the events linked to an alert',
    description:
      'The first linked events (oldest first) with their contents, of the kinds the caller may view; ' +
      '`hidden` counts the links of the other kinds.',
    tag,
    access: view,
    params: idParams,
    responses: { 200: alertLinkedEventsSchema },
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/alerts/:id/',
    summary: 'Triage an alert',
    description: 'Status, resolution, assignee, severity and tags. A resolution goes with resolved or closed only.',
    tag,
    access: change,
    params: idParams,
    body: alertUpdateSchema,
    responses: { 200: alertSchema },
  }),
  comment: endpoint({
    method: 'POST',
    path: '/api/alerts/:id/comments/',
    summary: 'Comment on an alert',
    tag,
    access: change,
    params: idParams,
    body: commentCreateSchema,
    responses: { 201: alertCommentSchema },
  }),
  bulk: endpoint({
    method: 'POST',
    path: '/api/alerts/bulk/',
    summary: 'Change many alerts at once',
    description:
      'One action over the alerts named by ids or matching a filter, in the caller’s scope. Needs the ' +
      '`bulk` action and `change` on alerts. Answers how many alerts changed.',
    tag,
    access: permission('alerts', 'bulk'),
    body: alertBulkSchema,
    responses: { 200: alertBulkAnswerSchema },
  }),
};
