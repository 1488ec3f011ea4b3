import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ModuleDeps } from '../../app-deps';
import { sql, type SqlFragment } from '../../db/sql';
import { requireActor } from '../../http/actor';
import {
  eventDetailQuerySchema,
  eventDetailSchema,
  mailDetailSchema,
  processTreeRequestSchema,
  processTreeSchema,
  type FileDetail,
  type WarehouseFile,
} from '@vigil/contract';
import { notFound, parseOrThrow } from '../../http/errors';
import { pathId } from '../../http/params';
import { tenantCondition } from '../../http/tenancy';
import { registerListRoutes } from '../../list/list-routes';
import type { ListResource } from '../../list/list-engine';
import {
  endpointEventList,
  mailAttachmentList,
  mailMessageList,
  networkEventList,
  toMailAttachment,
  toStoredEvent,
  toWarehouseFile,
  toWarehouseHash,
  warehouseFileList,
  warehouseHashList,
  type MailAttachmentRow,
  type StoredEventRow,
  type WarehouseRow,
} from './events.resources';
import { fileDetail, mailDetail, processTree } from './investigation.repository';

const sha256Param = z.object({ id: z.string().regex(/^[0-9a-fA-F]{64}$/) });

/** Stored events and the warehouse: list, count and detail of each, and file download. */
export async function registerEvents(app: FastifyInstance, deps: ModuleDeps): Promise<void> {
  const { db, indicatorIndex } = deps;
  const publicUrl = deps.config.publicUrl;
  // Warehouse reads first fold the hash sightings queued by acknowledged batches.
  const fold = () => app.sightings.fold();

  const detail = <R, F extends Record<string, unknown>, O>(
    basename: string,
    resource: ListResource<R, F, O>,
    find: (id: number, tenant: (column: SqlFragment) => SqlFragment, query: unknown) => Promise<O | null>,
    response?: z.ZodType,
    /** Brings the rows up to date before any read (see ListRoutesOptions.beforeRead). */
    beforeRead?: () => Promise<unknown>,
  ) => {
    registerListRoutes(app, resource, {
      apiBase: `/api/${basename}/`,
      basename,
      db,
      publicUrl,
      ...(beforeRead ? { beforeRead } : {}),
    });
    app.get(
      `/api/${basename}/:id/`,
      {
        config: { permission: { basename, action: 'view' } },
        ...(response ? { schema: { response: { 200: response } } } : {}),
      },
      async (request) => {
        const scope = requireActor(request).scope;
        await beforeRead?.();
        const found = await find(pathId(request.params), (column) => tenantCondition(scope, column), request.query);
        if (!found) throw notFound();
        return found;
      },
    );
  };

  /**
   * `?ts=` narrows the lookup to one partition; without it the id alone finds the row (ids come from a sequence).
   * Lists give times in milliseconds while events keep microseconds, so the time matches to the millisecond.
   */
  const eventTime = (query: unknown): SqlFragment => {
    const { ts } = parseOrThrow(eventDetailQuerySchema, query ?? {});
    return ts === undefined
      ? sql`TRUE`
      : sql`e.ts >= date_trunc('milliseconds', ${ts}::timestamptz)
            AND e.ts < date_trunc('milliseconds', ${ts}::timestamptz) + interval '1 millisecond'`;
  };

  const eventDetail = (table: 'network_events' | 'endpoint_events') => {
    return async (id: number, tenant: (column: SqlFragment) => SqlFragment, query: unknown) => {
      const { rows } = await db.query<StoredEventRow>(
        sql`SELECT e.id, e.company_id, e.ts, e.batch_id, e.event, e.raw FROM ${sql.ident(table)} e
            WHERE e.id = ${id} AND ${eventTime(query)} AND ${tenant(sql`e.company_id`)}`,
      );
      return rows[0] ? toStoredEvent(rows[0]) : null;
    };
  };

  detail('network', networkEventList, eventDetail('network_events'), eventDetailSchema);
  detail('eclipse_events', endpointEventList, eventDetail('endpoint_events'), eventDetailSchema);
  detail(
    'mailing',
    mailMessageList(indicatorIndex),
    async (id, tenant, query) => {
      const { rows } = await db.query<StoredEventRow>(
        sql`SELECT e.id, e.company_id, e.ts, e.batch_id, e.event FROM mail_messages e
            WHERE e.id = ${id} AND ${eventTime(query)} AND ${tenant(sql`e.company_id`)}`,
      );
      const row = rows[0];
      if (!row) return null;
      const attachments = await db.query<MailAttachmentRow & { stored: boolean }>(
        sql`SELECT a.id, a.company_id, a.ts, a.mail_id, a.filename, a.content_type, a.size, a.md5, a.sha1, a.sha256,
                   a.detected_type, a.inline,
                   EXISTS (SELECT 1 FROM warehouse_files f WHERE f.sha256 = a.sha256) AS stored
            FROM mail_attachments a
            WHERE a.company_id = ${row.company_id} AND a.mail_id = ${row.id} AND a.ts = ${row.ts}
            ORDER BY a.id`,
      );
      return mailDetail(row, attachments.rows, indicatorIndex.current());
    },
    mailDetailSchema,
  );
  detail('attaches', mailAttachmentList, async (id, tenant) => {
    const { rows } = await db.query<MailAttachmentRow>(
      sql`SELECT a.id, a.company_id, a.ts, a.mail_id, a.filename, a.content_type, a.size, a.md5, a.sha1, a.sha256,
                 a.detected_type, a.inline
          FROM mail_attachments a WHERE a.id = ${id} AND ${tenant(sql`a.company_id`)}`,
    );
    return rows[0] ? toMailAttachment(rows[0]) : null;
  });
  const warehouseRow = async (id: number, tenant: (column: SqlFragment) => SqlFragment, stored: boolean) => {
    const { rows } = await db.query<WarehouseRow>(
      sql`SELECT ${warehouseFileList.select} FROM warehouse_hashes h
          ${stored ? sql`JOIN` : sql`LEFT JOIN`} warehouse_files f ON f.sha256 = h.sha256
          WHERE h.id = ${id} AND ${tenant(sql`h.company_id`)}`,
    );
    return rows[0] ?? null;
  };
  detail(
    'warehouse/hashes',
    warehouseHashList(indicatorIndex),
    async (id, tenant) => {
      const row = await warehouseRow(id, tenant, false);
      return row ? toWarehouseHash(row, indicatorIndex.current()) : null;
    },
    undefined,
    fold,
  );

  // A warehouse file by its row id, or a SHA-256 with every place the caller's companies saw it.
  registerListRoutes(app, warehouseFileList, {
    apiBase: '/api/warehouse/',
    basename: 'warehouse',
    db,
    publicUrl,
    beforeRead: fold,
  });
  app.get(
    '/api/warehouse/:id/',
    { config: { permission: { basename: 'warehouse', action: 'view' } } },
    async (request): Promise<WarehouseFile | FileDetail> => {
      const scope = requireActor(request).scope;
      const tenant = (column: SqlFragment) => tenantCondition(scope, column);
      await fold();
      const hash = sha256Param.safeParse(request.params);
      const found = hash.success
        ? await fileDetail(db, hash.data.id.toLowerCase(), tenant, indicatorIndex.current())
        : await warehouseRow(pathId(request.params), tenant, true).then((row) => (row ? toWarehouseFile(row) : null));
      if (!found) throw notFound();
      return found;
    },
  );

  app.post(
    '/api/eclipse_events/process_tree/',
    {
      config: { permission: { basename: 'eclipse_events', action: 'view' } },
      schema: { response: { 200: processTreeSchema } },
    },
    async (request) => {
      const input = parseOrThrow(processTreeRequestSchema, request.body ?? {});
      const scope = requireActor(request).scope;
      return processTree(db, input, (column) => tenantCondition(scope, column));
    },
  );

  // The bytes of a file, for a hash one of the caller's companies has seen.
  app.get(
    '/api/warehouse/:id/download/',
    { config: { permission: { basename: 'warehouse', action: 'download' } } },
    async (request, reply) => {
      const parsed = sha256Param.safeParse(request.params);
      if (!parsed.success) throw notFound();
      const sha256 = parsed.data.id.toLowerCase();
      const scope = requireActor(request).scope;
      await fold();
      const { rows } = await db.query<{ content: Uint8Array; detected_type: string }>(sql`
        SELECT f.content, f.detected_type FROM warehouse_files f
        WHERE f.sha256 = ${sha256}
          AND EXISTS (SELECT 1 FROM warehouse_hashes h WHERE h.sha256 = f.sha256 AND ${tenantCondition(scope, sql`h.company_id`)})`);
      const row = rows[0];
      if (!row) throw notFound();
      reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', `attachment; filename="${sha256}.bin"`)
        .header('x-content-type-options', 'nosniff');
      return reply.send(Buffer.from(row.content));
    },
  );
}
