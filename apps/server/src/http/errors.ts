import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ZodError, core } from 'zod';
import { loggable, printable } from '../safe-text';

type ZodIssue = core.$ZodIssue;

/** An error with an HTTP status that is safe to show to the caller. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** 400 with field errors: `{errors: {field: [text]}}`. */
export class ValidationError extends HttpError {
  constructor(readonly fieldErrors: Record<string, string[]>) {
    super(400, 'The request has invalid fields.', 'invalid');
    this.name = 'ValidationError';
  }

  /** One field, one problem. */
  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
}

export const notFound = (what = 'Not found.') => new HttpError(404, what, 'not_found');
export const forbidden = (what = 'You do not have permission to perform this action.') =>
  new HttpError(403, what, 'forbidden');
export const unauthorized = (what = 'Authentication credentials were not provided.') =>
  new HttpError(401, what, 'not_authenticated');
export const conflict = (what: string) => new HttpError(409, what, 'conflict');

/** Field path as the caller wrote it: `page_size`, `filters.severity`, `ids.3`. */
function fieldName(path: readonly PropertyKey[], fallback: string): string {
  return path.length > 0 ? path.map(String).join('.') : fallback;
}

/** Converts a zod error into field errors. */
export function zodFieldErrors(error: ZodError, fallback = 'non_field_errors'): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    let name = fieldName(issue.path, fallback);
    let message = issue.message;
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const unknownName = issue.path.length ? `${fieldName(issue.path, fallback)}.${key}` : key;
        (errors[unknownName] ??= []).push('This field is not known here.');
      }
      continue;
    }
    if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) message = 'This field is required.';
    if (name === '') name = fallback;
    (errors[name] ??= []).push(message);
  }
  return errors;
}

/** Parses with a schema or throws a 400 listing every problem. */
export function parseOrThrow<T>(
  schema: { safeParse(data: unknown): { success: true; data: T } | { success: false; error: ZodError } },
  data: unknown,
): T {
  const result = schema.safeParse(data);
  if (!result.success) throw new ValidationError(zodFieldErrors(result.error));
  return result.data;
}

/** Longest message an error answer quotes; longer ones are cut with `…`. */
const MAX_MESSAGE = 2000;

/** A message as an answer may carry it: whatever client text it quotes, written out printably. */
const safeMessage = (message: string): string => printable(message, MAX_MESSAGE);

function safeFieldErrors(errors: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(errors)) {
    (out[printable(field, 200)] ??= []).push(...messages.map(safeMessage));
  }
  return out;
}

/**
 * An error as the log records it: its type, SQLSTATE or code, message and stack with NUL and
 * unpaired surrogates written out (a database error may quote the value it refused).
 */
export function loggableError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error, message: loggable(String(error)) };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    message: loggable(error.message),
    ...(error.stack ? { stack: loggable(error.stack) } : {}),
  };
}

/**
 * Installs the error and not-found handlers that give every failure the documented JSON shape.
 * Messages and field names are written out printably, since some quote what the client sent.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof ValidationError) {
      return reply.status(400).send({ errors: safeFieldErrors(error.fieldErrors) });
    }
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ detail: safeMessage(error.message), code: error.code });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string[]> = {};
      for (const problem of error.validation) {
        const issue = problem.params.issue as ZodIssue;
        const path = problem.instancePath.replace(/^\//, '').replace(/\//g, '.');
        if (issue.code === 'unrecognized_keys') {
          for (const key of issue.keys)
            (errors[path ? `${path}.${key}` : key] ??= []).push('This field is not known here.');
          continue;
        }
        const message =
          issue.code === 'invalid_type' && /received undefined$/.test(issue.message)
            ? 'This field is required.'
            : (problem.message ?? 'This value is not valid.');
        (errors[path || 'non_field_errors'] ??= []).push(message);
      }
      return reply.status(400).send({ errors: safeFieldErrors(errors) });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: loggableError(error) }, 'answer did not match its schema');
      return reply.status(500).send({ detail: 'The server could not produce a valid answer.', code: 'server_error' });
    }
    const fastifyError = error as FastifyError;
    const status = fastifyError.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: loggableError(error) }, 'request failed');
      return reply.status(status).send({ detail: 'The server failed to handle the request.', code: 'server_error' });
    }
    // Fastify's own 4xx errors: malformed JSON (quoting the body), unsupported media type, body too large…
    const message = safeMessage(fastifyError.message);
    const body = { detail: message, code: fastifyError.code };
    if (status === 400) {
      return reply.status(400).send({ errors: { non_field_errors: [message] }, ...body });
    }
    return reply.status(status).send(body);
  });
}
