import { endpoint, idParams, listEndpoints, noContent, permission, publicAccess, rawBody } from '../endpoint';
import {
  ingestAnswerSchema,
  ingestTokenCreateSchema,
  ingestTokenCreatedSchema,
  ingestTokenFiltersSchema,
  ingestTokenSchema,
  mailIngestQuerySchema,
} from '../ingest';

/** Ingest keys are administered with the `appliances` permissions. */
const tag = 'ingest';

const batchDescription =
  'Sent with `Authorization: Bearer <ingest key>`; the events go to the key’s company. An `Idempotency-Key` ' +
  'header makes a retry answer the stored result of the first attempt. The answer is sent once the batch is ' +
  'committed; a batch of which no line could be read answers 400 with the same body and `errors.body`.';

/** What a sensor may send: any body is read as raw bytes. */
const lines = (what: string) =>
  rawBody(what, ['application/x-ndjson', 'application/json', 'text/plain', 'application/octet-stream']);

const batch = (path: string, summary: string, body: ReturnType<typeof rawBody>) =>
  endpoint({
    method: 'POST',
    path,
    summary,
    description: batchDescription,
    tag,
    access: publicAccess,
    ingestKey: true,
    body,
    responses: { 200: ingestAnswerSchema },
  });

const mailDescription =
  `${batchDescription} The message is stored at its arrival time: now, or \`received_at\` when the sender ` +
  'hands it over later than it reached the mail server (no later than a few minutes ahead of the server’s clock).';

/** Ingest keys and the three endpoints sensors post events to. */
export const ingestEndpoints = {
  tokens: {
    ...listEndpoints({
      base: '/api/ingest/tokens/',
      tag,
      noun: 'ingest key',
      item: ingestTokenSchema,
      filters: ingestTokenFiltersSchema,
      access: permission('appliances', 'view'),
      orderings: ['id', 'name', 'created_at'],
      defaultOrdering: ['-id'],
    }),
    get: endpoint({
      method: 'GET',
      path: '/api/ingest/tokens/:id/',
      summary: 'Read an ingest key (without the key itself)',
      tag,
      access: permission('appliances', 'view'),
      params: idParams,
      responses: { 200: ingestTokenSchema },
    }),
    create: endpoint({
      method: 'POST',
      path: '/api/ingest/tokens/',
      summary: 'Make an ingest key',
      description:
        'For the caller’s own company unless `company_id` names another company in the caller’s scope. The ' +
        'answer is the only time the key is shown.',
      tag,
      access: permission('appliances', 'add'),
      body: ingestTokenCreateSchema,
      responses: { 201: ingestTokenCreatedSchema },
    }),
    revoke: endpoint({
      method: 'DELETE',
      path: '/api/ingest/tokens/:id/',
      summary: 'Revoke an ingest key',
      tag,
      access: permission('appliances', 'delete'),
      params: idParams,
      responses: { 204: noContent },
    }),
  },
  network: batch(
    '/api/ingest/network/',
    'Send network events (Suricata EVE JSON lines)',
    lines('Suricata EVE records, one JSON object a line.'),
  ),
  endpoint: batch(
    '/api/ingest/endpoint/',
    'Send endpoint events (ECS or EVTX-as-JSON lines)',
    lines('Endpoint records (ECS, or Windows event log records as JSON), one JSON object a line.'),
  ),
  mail: endpoint({
    method: 'POST',
    path: '/api/ingest/mail/',
    summary: 'Send one mail message (RFC 5322)',
    description: mailDescription,
    tag,
    access: publicAccess,
    ingestKey: true,
    query: mailIngestQuerySchema,
    body: rawBody('One mail message as received (RFC 5322), attachments included.', [
      'message/rfc822',
      'text/plain',
      'application/octet-stream',
    ]),
    responses: { 200: ingestAnswerSchema },
  }),
};
