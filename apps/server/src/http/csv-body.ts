import type { EndpointSpec, HandlerAnswerOf } from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { route, type EndpointOptions } from './endpoints';
import type { z } from 'zod';
import { parseOrThrow, ValidationError } from './errors';

/**
 * The bodies a CSV import takes, in the scope of its route: `text/csv` or `text/plain` as the text
 * itself, `application/json` parsed (the route checks its shape), each up to `maxBytes`.
 */
export function acceptCsvImportBodies(scope: FastifyInstance, maxBytes: number): void {
  scope.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'string', bodyLimit: maxBytes }, (_r, body, done) =>
    done(null, body),
  );
  scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: maxBytes }, (_r, body, done) => {
    try {
      done(null, JSON.parse(String(body)) as unknown);
    } catch {
      done(ValidationError.field('non_field_errors', 'The body is not valid JSON.'), undefined);
    }
  });
}

/**
 * The CSV text of an import request and where it goes: a CSV body with the target in the query
 * string (checked by `targetSchema`), or a JSON body `{csv, …target}` (checked by `jsonSchema`).
 */
export function csvImportInput<T extends object>(
  request: FastifyRequest,
  targetSchema: z.ZodType<T>,
  jsonSchema: z.ZodType<T & { csv: string }>,
): { csv: string; into: T } {
  if (typeof request.body === 'string') {
    return { csv: request.body, into: parseOrThrow(targetSchema, request.query ?? {}) };
  }
  const { csv, ...into } = parseOrThrow(jsonSchema, request.body ?? {});
  return { csv, into: into as T };
}

/**
 * A CSV import route in a scope of its own that takes the import bodies: the handler gets the CSV
 * text and the target, each form checked by its schema (400 with field errors).
 */
export async function registerCsvImport<E extends EndpointSpec, T extends object>(
  app: FastifyInstance,
  spec: E,
  schemas: { target: z.ZodType<T>; json: z.ZodType<T & { csv: string }> },
  maxBytes: number,
  handler: (request: FastifyRequest, csv: string, into: T) => Promise<HandlerAnswerOf<E>>,
  options: EndpointOptions<E> = {},
): Promise<void> {
  await app.register(async (scope) => {
    acceptCsvImportBodies(scope, maxBytes);
    route(
      scope,
      spec,
      async ({ request }) => {
        const { csv, into } = csvImportInput(request, schemas.target, schemas.json);
        return handler(request, csv, into);
      },
      // The query names the target only beside a CSV body: each form is checked here.
      { ...options, parseRequest: false, bodyLimit: maxBytes },
    );
  });
}
