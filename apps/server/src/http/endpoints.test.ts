import { endpoint, idParams, noContent, permission } from '@vigil/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerSerializerCompiler } from './answer-serializer';
import { route } from './endpoints';
import { installErrorHandling, notFound } from './errors';

const rename = endpoint({
  method: 'PATCH',
  path: '/api/things/:id/',
  summary: 'Rename a thing',
  tag: 'things',
  access: permission('things', 'change'),
  params: idParams,
  body: z.object({ name: z.string().min(1, 'Give it a name.') }).strict(),
  responses: { 204: noContent },
});

/** Things of the caller: 1 and 2 exist, 3 is someone else's (its check answers 404 itself). */
const things = new Map([
  [1, 'one'],
  [2, 'two'],
]);

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** An app with the one route, recording which ids were asked about and which were renamed. */
async function appWith(options: Parameters<typeof route<typeof rename>>[3]) {
  app = Fastify();
  installErrorHandling(app);
  app.setSerializerCompiler(answerSerializerCompiler);
  const renamed: number[] = [];
  route(app, rename, async ({ params }) => void renamed.push(params.id), options);
  await app.ready();
  const patch = (id: string, body: unknown) =>
    app!.inject({ method: 'PATCH', url: `/api/things/${id}/`, payload: body as object });
  return { patch, renamed };
}

describe('route() with an existence check', () => {
  it('answers 404 for a path naming nothing, before the body is checked', async () => {
    const asked: number[] = [];
    const { patch, renamed } = await appWith({
      exists: async ({ id }) => {
        asked.push(id);
        if (id === 3) throw notFound();
        return things.has(id);
      },
    });
    const missing = await patch('9', { name: '' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
    expect((await patch('3', { nonsense: true })).statusCode).toBe(404);
    // A path that does not parse is a 404 without asking.
    expect((await patch('abc', { name: '' })).statusCode).toBe(404);
    expect(asked).toEqual([9, 3]);
    // What exists gets its body checked as usual, then the handler runs.
    const bad = await patch('1', { name: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ errors: { name: ['Give it a name.'] } });
    expect((await patch('2', { name: 'second' })).statusCode).toBe(204);
    expect(renamed).toEqual([2]);
  });

  it('runs the given preHandler first, then the check', async () => {
    const order: string[] = [];
    const { patch } = await appWith({
      preHandler: async () => void order.push('preHandler'),
      exists: async ({ id }) => {
        order.push(`exists ${id}`);
        return things.has(id);
      },
    });
    expect((await patch('1', { name: 'first' })).statusCode).toBe(204);
    expect(order).toEqual(['preHandler', 'exists 1']);
  });

  it('without the check, the body is checked whatever the path names', async () => {
    const { patch } = await appWith({});
    expect((await patch('9', { name: '' })).statusCode).toBe(400);
  });
});
