import { endpoint, publicAccess } from '../endpoint';
import { healthSchema } from '../health';

/** Whether the server and its database answer. */
export const healthEndpoints = {
  get: endpoint({
    method: 'GET',
    path: '/api/health/',
    summary: 'Health of the server and its database',
    description: '200 when the database answers, 503 (same shape, `status: degraded`) when it does not.',
    tag: 'health',
    access: publicAccess,
    openDuringMaintenance: true,
    responses: { 200: healthSchema, 503: healthSchema },
  }),
};
