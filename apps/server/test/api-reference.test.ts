import { Validator } from '@seriousme/openapi-schema-validator';
import { endpointEntries } from '@vigil/contract';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPermissionGuard } from '../src/http/actor';
import { route } from '../src/http/endpoints';
import { openApiPath } from '../src/modules/api-docs/openapi';
import { startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t?.close();
});

interface Document {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
}

describe('the API reference', () => {
  it('serves an OpenAPI 3.1 document that a standard validator accepts', async () => {
    const answer = await t.client().get<Document>('/api/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe('3.1.0');
    type Spec = Parameters<Validator['validate']>[0];
    const result = await new Validator().validate(answer.body as unknown as Spec);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator does refuse a broken document (a parameter in no valid place).
    const broken = structuredClone(answer.body) as Document;
    const operation = broken.paths['/api/units/{id}/']!.get as unknown as { parameters: { in: string }[] };
    operation.parameters[0]!.in = 'nowhere';
    expect((await new Validator().validate(broken as unknown as Spec)).valid).toBe(false);
  });

  it('lists every declared endpoint with its answers, and every registered /api/ route is declared', async () => {
    const { body } = await t.client().get<Document>('/api/openapi.json');
    const documented = new Set(
      Object.entries(body.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    for (const { spec } of endpointEntries()) {
      const key = `${spec.method} ${openApiPath(spec.path)}`;
      expect(documented, key).toContain(key);
      expect(Object.keys(spec.responses).length, key).toBeGreaterThan(0);
    }
    const registered = t.app.guardedRoutes.filter((r) => r.declared).map((r) => `${r.method} ${openApiPath(r.url)}`);
    for (const key of registered) expect(documented, key).toContain(key);
  });

  it('shows a readable page of the reference', async () => {
    const answer = await t.client().get<string>('/api/docs/');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/html');
    expect(answer.body).toContain('<code>/api/units/{id}/</code>');
    expect(answer.body).toContain('Permission <code>companies</code>: change');
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('refuses to register an /api/ route that no declaration names', async () => {
    const app = Fastify();
    installPermissionGuard(app);
    expect(() => app.get('/api/undeclared/', async () => ({}))).toThrow(/not registered from a contract declaration/);
    // Pages outside the API are not endpoints.
    expect(() => app.get('/outside/', async () => 'page')).not.toThrow();
    await app.close();
  });

  it('serialises answers through the declared schema: a field the contract does not name never leaves', async () => {
    const app = Fastify();
    const { serializerCompiler, validatorCompiler } = await import('fastify-type-provider-zod');
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    const routes = installPermissionGuard(app);
    const spec = endpointEntries().find((e) => e.name === 'docs.openapi')!.spec;
    // A look-alike declaration answering one named field.
    const { z } = await import('zod');
    route(app, { ...spec, path: '/api/x/', responses: { 200: z.object({ named: z.string() }) } }, async () => ({
      named: 'yes',
      secret: 'must not leave',
    }));
    const answer = await app.inject({ method: 'GET', url: '/api/x/' });
    expect(answer.json()).toEqual({ named: 'yes' });
    expect(routes.find((r) => r.url === '/api/x/')?.declared).toBe(true);
    await app.close();
  });
});
