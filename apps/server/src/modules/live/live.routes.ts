import { endpoints } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { can, requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { inScope } from '../../http/tenancy';
import { LiveBus, type LiveEvent } from './live.bus';

declare module 'fastify' {
  interface FastifyInstance {
    /** Live updates: publish after commit; `GET /api/live/` streams them to signed-in users. */
    live: LiveBus;
  }
}

/** The permission a user needs to hear an event of each kind. */
const basenameOf = (event: LiveEvent) => (event.type.startsWith('alert.') ? 'alerts' : 'incidents');

/**
 * `GET /api/live/`: server-sent events for the signed-in user — `alert.created`, `alert.updated`,
 * `incident.created`, `incident.updated` with the company and ids — only for companies in the
 * user's scope and kinds the user may view. A comment line every LIVE_HEARTBEAT_SECONDS keeps
 * proxies from closing the stream; streams end cleanly when the server shuts down.
 */
export async function registerLive(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const bus = new LiveBus(deps.db);
  app.decorate('live', bus);
  const open = new Set<() => void>();
  app.addHook('onReady', async () => {
    await bus.start();
  });
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
    await bus.stop();
  });

  route(app, endpoints.live.stream, async ({ request, reply }) => {
    const actor = requireActor(request);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    res.write('retry: 5000\n: connected\n\n');
    const unsubscribe = bus.subscribe((event) => {
      if (!inScope(actor.scope, event.company_id) || !can(actor, basenameOf(event), 'view')) return;
      res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    });
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), deps.config.liveHeartbeatSeconds * 1000);
    heartbeat.unref();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(end);
      if (!res.writableEnded) res.end();
    };
    open.add(end);
    request.raw.on('close', end);
    res.on('error', end);
    return reply;
  });
}
