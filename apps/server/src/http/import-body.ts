import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseOrThrow, ValidationError } from './errors';

/**
 * A scope for an import route whose body is a file: `text/csv` and `text/plain` reach the handler
 * as a string, JSON as its parsed value (a body that is not JSON answers 400), each up to
 * `maxBytes`. `register` declares the route inside the scope.
 */
export async function registerImportScope(
  app: FastifyInstance,
  maxBytes: number,
  register: (scope: FastifyInstance) => void,
): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      ['text/csv', 'text/plain'],
      { parseAs: 'string', bodyLimit: maxBytes },
      (_r, body, done) => done(null, body),
    );
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: maxBytes }, (_r, body, done) => {
      try {
        done(null, JSON.parse(String(body)) as unknown);
      } catch {
        done(ValidationError.field('non_field_errors', 'The body is not valid JSON.'), undefined);
      }
    });
    register(scope);
  });
}

type Schema<T> = Parameters<typeof parseOrThrow<T>>[0];

/**
 * The file and target of an import request: a CSV body with the target in the query string, or
 * JSON `{csv, …target}`; each form checked by its schema (400 with field errors).
 */
export function importRequest<T extends object>(
  request: FastifyRequest,
  targetSchema: Schema<T>,
  jsonSchema: Schema<T & { csv: string }>,
): { csv: string; into: T } {
  if (typeof request.body === 'string') {
    return { csv: request.body, into: parseOrThrow(targetSchema, request.query ?? {}) };
  }
  const { csv, ...into } = parseOrThrow(jsonSchema, request.body ?? {});
  return { csv, into: into as unknown as T };
}
