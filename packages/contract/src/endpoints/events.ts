import { z } from 'zod';
import { endpoint, idParams, listEndpoints, permission, rawAnswer } from '../endpoint';
import {
  endpointEventFiltersSchema,
  mailAttachmentFiltersSchema,
  mailAttachmentItemSchema,
  mailMessageFiltersSchema,
  networkEventFiltersSchema,
  sha256ParamSchema,
  storedEventSchema,
  warehouseFileFiltersSchema,
  warehouseFileSchema,
  warehouseHashFiltersSchema,
  warehouseHashSchema,
} from '../ingest';
import {
  eventDetailQuerySchema,
  eventDetailSchema,
  fileDetailSchema,
  mailDetailSchema,
  mailListItemSchema,
  processTreeRequestSchema,
  processTreeSchema,
} from '../investigation';

/** Orderings of the time-partitioned event lists. */
const timeOrderings = ['ts', 'id'] as const;
const seenOrderings = ['last_seen', 'first_seen', 'sightings', 'id'] as const;

const network = permission('network', 'view');
const endpointView = permission('eclipse_events', 'view');
const mail = permission('mailing', 'view');
const attachments = permission('attaches', 'view');
const warehouse = permission('warehouse', 'view');
const hashes = permission('warehouse/hashes', 'view');

/** A warehouse file by its row id, or a SHA-256 (then every place the caller's companies saw it). */
const warehouseIdParams = z.object({
  id: z.union([sha256ParamSchema, idParams.shape.id]),
});

/** Stored events (network, endpoint, mail, attachments) and the file warehouse. */
export const eventEndpoints = {
  network: {
    ...listEndpoints({
      base: '/api/network/',
      tag: 'network',
      noun: 'network event',
      item: storedEventSchema,
      filters: networkEventFiltersSchema,
      access: network,
      orderings: timeOrderings,
      defaultOrdering: ['-ts'],
    }),
    get: endpoint({
      method: 'GET',
      path: '/api/network/:id/',
      summary: 'Read a network event with the record as it arrived',
      description: '`ts` (the event time) lets the lookup go to one monthly partition.',
      tag: 'network',
      access: network,
      params: idParams,
      query: eventDetailQuerySchema,
      responses: { 200: eventDetailSchema },
    }),
  },
  endpoint: {
    ...listEndpoints({
      base: '/api/eclipse_events/',
      tag: 'eclipse_events',
      noun: 'endpoint event',
      item: storedEventSchema,
      filters: endpointEventFiltersSchema,
      access: endpointView,
      orderings: timeOrderings,
      defaultOrdering: ['-ts'],
    }),
    get: endpoint({
      method: 'GET',
      path: '/api/eclipse_events/:id/',
      summary: 'Read an endpoint event with the record as it arrived',
      description: '`ts` (the event time) lets the lookup go to one monthly partition.',
      tag: 'eclipse_events',
      access: endpointView,
      params: idParams,
      query: eventDetailQuerySchema,
      responses: { 200: eventDetailSchema },
    }),
    processTree: endpoint({
      method: 'POST',
      path: '/api/eclipse_events/process_tree/',
      summary: 'The process tree of a host in a time window',
      description:
        'Processes are linked by entity id, else to the latest earlier process with the parent pid; at most ' +
        '5,000 processes (`truncated` says when there were more).',
      tag: 'eclipse_events',
      access: endpointView,
      body: processTreeRequestSchema,
      responses: { 200: processTreeSchema },
    }),
  },
  mail: {
    ...listEndpoints({
      base: '/api/mailing/',
      tag: 'mailing',
      noun: 'mail message',
      item: mailListItemSchema,
      filters: mailMessageFiltersSchema,
      access: mail,
      orderings: timeOrderings,
      defaultOrdering: ['-ts'],
    }),
    get: endpoint({
      method: 'GET',
      path: '/api/mailing/:id/',
      summary: 'Read a mail message with its authentication results, URLs and attachments',
      tag: 'mailing',
      access: mail,
      params: idParams,
      query: eventDetailQuerySchema,
      responses: { 200: mailDetailSchema },
    }),
    raw: endpoint({
      method: 'GET',
      path: '/api/mailing/:id/raw/',
      summary: 'Download the original message, byte for byte',
      description:
        'The message as the sensor sent it (`message/rfc822`), kept compressed for as long as the company keeps ' +
        'its mail. Needs the `mail_content` privilege besides `mailing` view; 404 when the message is not the ' +
        'caller’s to see or its original was not kept.',
      tag: 'mailing',
      access: mail,
      params: idParams,
      query: eventDetailQuerySchema,
      responses: { 200: rawAnswer('The original message.', 'message/rfc822') },
    }),
  },
  attachments: {
    ...listEndpoints({
      base: '/api/attaches/',
      tag: 'attaches',
      noun: 'mail attachment',
      item: mailAttachmentItemSchema,
      filters: mailAttachmentFiltersSchema,
      access: attachments,
      orderings: [...timeOrderings, 'size'],
      defaultOrdering: ['-ts'],
    }),
    get: endpoint({
      method: 'GET',
      path: '/api/attaches/:id/',
      summary: 'Read a mail attachment',
      tag: 'attaches',
      access: attachments,
      params: idParams,
      responses: { 200: mailAttachmentItemSchema },
    }),
  },
  warehouse: {
    ...listEndpoints({
      base: '/api/warehouse/',
      tag: 'warehouse',
      noun: 'warehouse file',
      item: warehouseFileSchema,
      filters: warehouseFileFiltersSchema,
      access: warehouse,
      orderings: [...seenOrderings, 'size'],
      defaultOrdering: ['-last_seen'],
    }),
    get: endpoint({
      method: 'GET',
      path: '/api/warehouse/:id/',
      summary: 'Read a warehouse file, or where a SHA-256 was seen',
      description:
        'A number names a stored file of one company; a SHA-256 gives everything the caller’s companies know ' +
        'of the file: each company’s sightings and the mails, endpoint and network events it was seen in.',
      tag: 'warehouse',
      access: warehouse,
      params: warehouseIdParams,
      responses: { 200: z.union([fileDetailSchema, warehouseFileSchema]) },
    }),
    download: endpoint({
      method: 'GET',
      path: '/api/warehouse/:id/download/',
      summary: 'Download the bytes of a file',
      description: 'For a SHA-256 one of the caller’s companies has seen and the warehouse holds.',
      tag: 'warehouse',
      access: permission('warehouse', 'download'),
      params: z.object({ id: sha256ParamSchema }),
      responses: { 200: rawAnswer('The file’s bytes, as an attachment.', 'application/octet-stream') },
    }),
  },
  hashes: {
    ...listEndpoints({
      base: '/api/warehouse/hashes/',
      tag: 'warehouse/hashes',
      noun: 'file hash',
      item: warehouseHashSchema,
      filters: warehouseHashFiltersSchema,
      access: hashes,
      orderings: seenOrderings,
      defaultOrdering: ['-last_seen'],
    }),
    get: endpoint({
      method: 'GET',
      path: '/api/warehouse/hashes/:id/',
      summary: 'Read what a company saw of a hash',
      tag: 'warehouse/hashes',
      access: hashes,
      params: idParams,
      responses: { 200: warehouseHashSchema },
    }),
  },
};
