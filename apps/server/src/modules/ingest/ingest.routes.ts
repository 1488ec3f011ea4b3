import { endpoints, MAIL_RECEIVED_AT_SKEW_MS } from '@vigil/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { HttpError, ValidationError } from '../../http/errors';
import { registerList } from '../../list/list-routes';
import { auditContextOf } from '../audit/audit.service';
import type { BatchInput } from './batch';
import {
  parseEndpointRecords,
  parseEveLines,
  parseMail,
  type EndpointRecord,
  type LineResult,
  type SoftwareInventoryItem,
} from './parsers';
import { SightingsFolder } from './sightings';
import {
  hashIngestKey,
  ingestTokenList,
  resolveIngestKey,
  toIngestToken,
  type IngestCaller,
} from './tokens.repository';
import { IngestTokensService } from './tokens.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The company and token behind a valid ingest key (ingest routes only). */
    ingestCaller: IngestCaller | null;
  }
}

const bearer = /^Bearer\s+([A-Za-z0-9._~+/=-]{1,200})\s*$/i;
const idempotencyPattern = /^[\x21-\x7e]{1,200}$/;

const invalidKey = () =>
  new HttpError(401, 'The ingest key is missing, not valid, or has been revoked.', 'invalid_ingest_key');

function idempotencyKeyOf(request: FastifyRequest): string | null {
  const value = request.headers['idempotency-key'];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !idempotencyPattern.test(value)) {
    throw ValidationError.field('idempotency_key', 'The Idempotency-Key header must be 1 to 200 printable characters.');
  }
  return value;
}

function bodyBytes(body: unknown): Buffer {
  if (Buffer.isBuffer(body)) return body;
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body);
  throw new HttpError(415, 'Send the events as the raw request body.', 'unsupported_media_type');
}

const NOTHING_ACCEPTED = 'Nothing in this batch could be read: every line was rejected (see rejected).';

function split<T>(results: LineResult<T>[]): {
  events: T[];
  texts: string[];
  rejected: { line: number; reason: string }[];
} {
  const events: T[] = [];
  const texts: string[] = [];
  const rejected: { line: number; reason: string }[] = [];
  for (const r of results) {
    if (r.ok) {
      events.push(r.event);
      texts.push(r.text);
    } else rejected.push({ line: r.line, reason: r.reason });
  }
  return { events, texts, rejected };
}

/** The endpoint stream's lines: events (with their texts) and the packages of inventory lines. */
function splitRecords(results: LineResult<EndpointRecord>[]) {
  const { events: lines, texts: lineTexts, rejected } = split(results);
  const events = [];
  const texts: string[] = [];
  const inventory: SoftwareInventoryItem[] = [];
  let inventoryLines = 0;
  for (let i = 0; i < lines.length; i++) {
    const record = lines[i]!;
    if (record.kind === 'event') {
      events.push(record.event);
      texts.push(lineTexts[i]!);
    } else {
      inventoryLines += 1;
      for (const item of record.items) inventory.push(item);
    }
  }
  return { records: { events, inventory, inventoryLines }, texts, rejected };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Folds queued hash sightings into warehouse/hashes (readers call `fold()` first). */
    sightings: SightingsFolder;
  }
}

/** Ingest tokens (`appliances` permissions) and the three ingest endpoints sensors post to. */
export async function registerIngest(app: FastifyInstance, deps: ModuleDeps): Promise<void> {
  const { db, config, pipeline } = deps;

  // Sightings queued by batches are folded into warehouse/hashes every 2 s and before each read.
  const sightings = new SightingsFolder(db, 2000, (error) => app.log.error({ err: error }, 'folding sightings failed'));
  app.decorate('sightings', sightings);
  app.addHook('onReady', async () => sightings.start());
  app.addHook('preClose', async () => {
    await sightings.stop();
  });

  const api = endpoints.ingest;
  const tokens = new IngestTokensService(db);
  registerList(app, api.tokens, ingestTokenList, { db, publicUrl: config.publicUrl });

  route(app, api.tokens.create, async ({ request, body }) => {
    const created = await tokens.create(requireActor(request), auditContextOf(request), body);
    return { ...toIngestToken(created.row), key: created.key };
  });

  route(app, api.tokens.get, async ({ request, params }) =>
    toIngestToken(await tokens.get(requireActor(request), params.id)),
  );

  route(app, api.tokens.revoke, async ({ request, params }) => {
    await tokens.revoke(requireActor(request), auditContextOf(request), params.id);
  });

  // The ingest endpoints live in their own scope: they read every body as raw bytes.
  await app.register(async (scope) => {
    scope.decorateRequest('ingestCaller', null);
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: config.ingestMaxBodyBytes }, (_req, body, done) =>
      done(null, body),
    );
    const routeOptions = {
      config: { identityNeutral: true, bearerKey: true },
      bodyLimit: config.ingestMaxBodyBytes,
      preHandler: async (request: FastifyRequest) => {
        const match = bearer.exec(request.headers.authorization ?? '');
        const key = match?.[1];
        // A sensor streaming batches costs no lookup per batch; a revoked key is refused at once.
        const caller = key
          ? await app.identityCache.remember(`ingest:${hashIngestKey(key)}`, () => resolveIngestKey(db, key))
          : null;
        if (!caller) throw invalidKey();
        request.ingestCaller = caller;
      },
    };
    const callerOf = (request: FastifyRequest): IngestCaller => {
      if (!request.ingestCaller) throw invalidKey();
      return request.ingestCaller;
    };
    const answer = async (reply: FastifyReply, input: BatchInput) => {
      // Committed (and the live updates published) when this resolves.
      const result = await pipeline.runBatch(input);
      const body = { accepted: result.accepted, rejected: result.rejected, batch_id: result.batch_id };
      // Nothing readable at all is a sender's mistake (wrong format, wrong endpoint): a 400 says so
      // plainly, so it is not retried as if it were a passing failure. The batch is still recorded,
      // and a retry under the same Idempotency-Key gets this same answer.
      if (result.accepted === 0 && result.rejected.length > 0) {
        reply.status(400);
        return { ...body, errors: { body: [NOTHING_ACCEPTED] } };
      }
      return body;
    };
    const lineOptions = { maxLineBytes: config.ingestMaxLineBytes };

    route(
      scope,
      api.network,
      async ({ request, reply }) => {
        const caller = callerOf(request);
        const idempotencyKey = idempotencyKeyOf(request);
        const { events, texts, rejected } = split(parseEveLines(bodyBytes(request.body), lineOptions));
        return answer(reply, {
          kind: 'network',
          companyId: caller.companyId,
          tokenId: caller.tokenId,
          idempotencyKey,
          events,
          texts,
          rejected,
        });
      },
      routeOptions,
    );

    route(
      scope,
      api.endpoint,
      async ({ request, reply }) => {
        const caller = callerOf(request);
        const idempotencyKey = idempotencyKeyOf(request);
        const { records, texts, rejected } = splitRecords(parseEndpointRecords(bodyBytes(request.body), lineOptions));
        return answer(reply, {
          kind: 'endpoint',
          companyId: caller.companyId,
          tokenId: caller.tokenId,
          idempotencyKey,
          ...records,
          texts,
          rejected,
        });
      },
      routeOptions,
    );

    route(
      scope,
      api.mail,
      async ({ request, reply, query }) => {
        const caller = callerOf(request);
        const idempotencyKey = idempotencyKeyOf(request);
        const receivedAt = query.received_at === undefined ? undefined : new Date(query.received_at);
        if (receivedAt && receivedAt.getTime() > Date.now() + MAIL_RECEIVED_AT_SKEW_MS) {
          throw ValidationError.field('received_at', 'A message cannot have arrived later than now.');
        }
        const parsed = await parseMail(bodyBytes(request.body), { maxBytes: config.ingestMaxBodyBytes });
        return answer(reply, {
          kind: 'mail',
          companyId: caller.companyId,
          tokenId: caller.tokenId,
          idempotencyKey,
          message: parsed.ok ? parsed.message : null,
          ...(receivedAt ? { receivedAt: receivedAt.toISOString() } : {}),
          rejected: parsed.ok ? [] : [{ line: 0, reason: parsed.reason }],
        });
      },
      routeOptions,
    );
  });
}
