import { sessionsEndedSchema, userSessionFiltersSchema, userSessionParams, userSessionSchema } from '../auth';
import { endpoint, listEndpoints, signedIn } from '../endpoint';

const tag = 'sessions';

/** The caller's own sessions: every signed-in user lists and ends theirs; nobody sees anyone else's. */
export const sessionEndpoints = {
  ...listEndpoints({
    base: '/api/sessions/',
    tag,
    noun: 'session',
    item: userSessionSchema,
    filters: userSessionFiltersSchema,
    access: signedIn,
    basename: 'sessions',
    orderings: ['created_at', 'last_seen_at'],
    defaultOrdering: ['-last_seen_at'],
  }),
  end: endpoint({
    method: 'DELETE',
    path: '/api/sessions/:id/',
    summary: 'End one of one’s sessions',
    tag,
    access: signedIn,
    params: userSessionParams,
    responses: { 200: sessionsEndedSchema },
  }),
  endOthers: endpoint({
    method: 'DELETE',
    path: '/api/sessions/',
    summary: 'End every session but this one',
    tag,
    access: signedIn,
    responses: { 200: sessionsEndedSchema },
  }),
};
