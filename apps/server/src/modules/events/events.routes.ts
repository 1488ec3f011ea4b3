import { endpoints } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { registerList } from '../../list/list-routes';
import {
  endpointEventList,
  mailAttachmentList,
  mailMessageList,
  networkEventList,
  warehouseFileList,
  warehouseHashList,
} from './events.repository';
import { EventsService } from './events.service';

/** Stored events and the warehouse: list, count and detail of each, the process tree and file download. */
export async function registerEvents(app: FastifyInstance, deps: ModuleDeps): Promise<void> {
  const api = endpoints.events;
  const events = new EventsService(deps.db, () => app.sightings.fold(), deps.indicatorIndex);
  const list = { db: deps.db, publicUrl: deps.config.publicUrl };
  // Warehouse reads first fold the hash sightings queued by acknowledged batches.
  const warehouseList = { ...list, beforeRead: events.foldSightings };
  const scopeOf = (input: { request: Parameters<typeof requireActor>[0] }) => requireActor(input.request).scope;

  registerList(app, api.network, networkEventList, list);
  route(app, api.network.get, async (input) => events.networkEvent(scopeOf(input), input.params.id, input.query.ts));

  registerList(app, api.endpoint, endpointEventList, list);
  route(app, api.endpoint.get, async (input) => events.endpointEvent(scopeOf(input), input.params.id, input.query.ts));
  route(app, api.endpoint.processTree, async (input) => events.processTree(scopeOf(input), input.body));

  registerList(app, api.mail, mailMessageList(deps.indicatorIndex), list);
  route(app, api.mail.get, async (input) => events.mail(scopeOf(input), input.params.id, input.query.ts));
  // The original message as it arrived, byte for byte.
  route(app, api.mail.raw, async ({ request, reply, params, query }) => {
    const original = await events.mailOriginal(requireActor(request), params.id, query.ts);
    return reply
      .header('content-type', 'message/rfc822')
      .header('content-disposition', `attachment; filename="message-${params.id}.eml"`)
      .header('x-content-type-options', 'nosniff')
      .send(original);
  });

  registerList(app, api.attachments, mailAttachmentList, list);
  route(app, api.attachments.get, async (input) => events.attachment(scopeOf(input), input.params.id));

  registerList(app, api.hashes, warehouseHashList(deps.indicatorIndex), warehouseList);
  route(app, api.hashes.get, async (input) => events.hash(scopeOf(input), input.params.id));

  registerList(app, api.warehouse, warehouseFileList, warehouseList);
  // A warehouse file by its row id, or a SHA-256 with every place the caller's companies saw it.
  route(app, api.warehouse.get, async (input) => events.file(scopeOf(input), input.params.id));

  // The bytes of a file, for a hash one of the caller's companies has seen.
  route(app, api.warehouse.download, async ({ request, reply, params }) => {
    const file = await events.fileContent(requireActor(request).scope, params.id);
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${file.sha256}.bin"`)
      .header('x-content-type-options', 'nosniff')
      .send(file.content);
  });
}
