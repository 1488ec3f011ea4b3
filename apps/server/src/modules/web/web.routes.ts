import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';

/** A browser opening a link (not the console's own API call): it wants the app's page. */
export function wantsPage(request: FastifyRequest): boolean {
  return (
    request.method === 'GET' &&
    request.headers['x-requested-with'] === undefined &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

/** Answers with the app shell (index.html), or a plain explanation when the app is not built. */
export function sendAppShell(reply: FastifyReply, root: string): FastifyReply {
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    return reply
      .status(503)
      .type('text/plain; charset=utf-8')
      .send('The Vigil console is not built yet. Run `npm run build` (npm start does it for you).');
  }
  return reply.header('cache-control', 'no-cache').sendFile('index.html', root);
}

/**
 * Serves the built web app. Any GET that is not an API call and not a file falls back to
 * index.html so deep links such as /alerts open the app; unknown /api/ paths answer JSON 404.
 */
export async function registerWeb(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const root = deps.config.webDistDir;
  const index = path.join(root, 'index.html');
  const built = fs.existsSync(index);
  if (built) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // Hashed assets never change; the HTML shell must always be fresh.
      setHeaders(reply, filePath) {
        reply.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn({ root }, 'the web app is not built; run `npm run build` to serve the console');
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (
      pathname === '/api' ||
      pathname.startsWith('/api/') ||
      (request.method !== 'GET' && request.method !== 'HEAD')
    ) {
      return reply.status(404).send({ detail: 'Not found.', code: 'not_found' });
    }
    // A missing file with an extension is a 404, not the app shell.
    if (path.extname(pathname) !== '') return reply.status(404).send({ detail: 'Not found.', code: 'not_found' });
    return sendAppShell(reply, root);
  });
}
