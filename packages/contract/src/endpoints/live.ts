import { endpoint, rawAnswer, signedIn } from '../endpoint';

/** Live updates of the signed-in user's companies. */
export const liveEndpoints = {
  stream: endpoint({
    method: 'GET',
    path: '/api/live/',
    summary: 'Stream live updates (server-sent events)',
    description:
      '`alert.created`, `alert.updated`, `incident.created` and `incident.updated` events (company, ids, count) ' +
      'of the companies in the caller’s scope and the kinds the caller may view; a comment line now and then ' +
      'keeps the stream open.',
    tag: 'live',
    access: signedIn,
    responses: { 200: rawAnswer('A stream of server-sent events.', 'text/event-stream') },
  }),
};
