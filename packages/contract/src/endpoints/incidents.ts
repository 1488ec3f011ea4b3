import { z } from 'zod';
import { commentCreateSchema } from '../alerts';
import { endpoint, idParams, listEndpoints, permission } from '../endpoint';
import {
  incidentCreateSchema,
  incidentDetailSchema,
  incidentFiltersSchema,
  incidentGroupingSchema,
  incidentSchema,
  incidentTaskSchema,
  incidentUpdateSchema,
  taskCreateSchema,
  taskUpdateSchema,
} from '../incidents';

/** Incidents: made by hand from alerts or by grouping rules; timeline, tasks and SLA timers. */
const view = permission('incidents', 'view');
const change = permission('incidents', 'change');
const tag = 'incidents';

const pathNumber = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
/** An incident's id and the id of one of its tasks. */
const taskParams = z.object({ id: pathNumber, task_id: pathNumber });

export const incidentEndpoints = {
  ...listEndpoints({
    base: '/api/incidents/',
    tag,
    noun: 'incident',
    item: incidentSchema,
    filters: incidentFiltersSchema,
    access: view,
    orderings: ['created_at', 'updated_at', 'severity', 'id'],
    defaultOrdering: ['-created_at'],
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/incidents/:id/',
    summary: 'Read an incident',
    description: 'The incident with its linked alert ids, timeline and tasks.',
    tag,
    access: view,
    params: idParams,
    responses: { 200: incidentDetailSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/incidents/',
    summary: 'Make an incident from alerts',
    description: 'The alerts all belong to one company in the caller’s scope; the incident is made in it.',
    tag,
    access: permission('incidents', 'add'),
    body: incidentCreateSchema,
    responses: { 201: incidentDetailSchema },
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/incidents/:id/',
    summary: 'Change an incident',
    description:
      'Title, description, severity, assignee, status (along the incident workflow, with a summary) and the ' +
      'alerts linked to it.',
    tag,
    access: change,
    params: idParams,
    body: incidentUpdateSchema,
    responses: { 200: incidentSchema },
  }),
  comment: endpoint({
    method: 'POST',
    path: '/api/incidents/:id/comments/',
    summary: 'Comment on an incident',
    description: 'Adds the comment to the timeline; answers the incident as read after it.',
    tag,
    access: change,
    params: idParams,
    body: commentCreateSchema,
    responses: { 201: incidentDetailSchema },
  }),
  addTask: endpoint({
    method: 'POST',
    path: '/api/incidents/:id/tasks/',
    summary: 'Add a task to an incident',
    tag,
    access: change,
    params: idParams,
    body: taskCreateSchema,
    responses: { 201: incidentTaskSchema },
  }),
  updateTask: endpoint({
    method: 'PATCH',
    path: '/api/incidents/:id/tasks/:task_id/',
    summary: 'Change a task of an incident',
    tag,
    access: change,
    params: taskParams,
    body: taskUpdateSchema,
    responses: { 200: incidentTaskSchema },
  }),
  grouping: endpoint({
    method: 'GET',
    path: '/api/incidents/grouping/:id/',
    summary: 'Read a company’s incident grouping',
    description: 'How new alerts of the company (the path id) are gathered into incidents.',
    tag,
    access: view,
    params: idParams,
    responses: { 200: incidentGroupingSchema },
  }),
  setGrouping: endpoint({
    method: 'PUT',
    path: '/api/incidents/grouping/:id/',
    summary: 'Change a company’s incident grouping',
    tag,
    access: change,
    params: idParams,
    body: incidentGroupingSchema,
    responses: { 200: incidentGroupingSchema },
  }),
};
