import { endpoint, permission } from '../endpoint';
import { graphAnswerSchema, graphExpandAnswerSchema, graphExpandSchema, graphQuerySchema } from '../graph';

/**
 * The investigation graph of an alert or an incident, and expansion of one node. Events and
 * incidents enter a graph only for callers who may view them on their own pages.
 */
const view = permission('alerts', 'view');
const tag = 'graph';

export const graphEndpoints = {
  get: endpoint({
    method: 'GET',
    path: '/api/graph/',
    summary: 'Read the graph of an alert or an incident',
    description: 'Give exactly one of `alert` and `incident`. An incident’s graph needs `view` on incidents.',
    tag,
    access: view,
    query: graphQuerySchema,
    responses: { 200: graphAnswerSchema },
  }),
  expand: endpoint({
    method: 'POST',
    path: '/api/graph/expand/',
    summary: 'Expand one node of a graph',
    description:
      'The node’s neighbours in a time window (the last 7 days when absent), in one company or every visible one.',
    tag,
    access: view,
    readsOnly: true,
    body: graphExpandSchema,
    responses: { 200: graphExpandAnswerSchema },
  }),
};
