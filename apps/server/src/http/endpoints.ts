import {
  isRawAnswer,
  isRawBody,
  type BodyOf,
  type EndpointSpec,
  type HandlerAnswerOf,
  type ParamsOf,
  type QueryOf,
} from '@vigil/contract';
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteShorthandOptions,
} from 'fastify';
import type { z } from 'zod';
import { notFound, parseOrThrow } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract's declaration this route was registered from. */
    endpoint?: EndpointSpec;
  }
}

/** What a handler receives: the request, the reply and the validated parts of the request. */
export interface EndpointInput<E extends EndpointSpec> {
  request: FastifyRequest;
  reply: FastifyReply;
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
}

/**
 * A handler answers the declared JSON (validated and stripped to the declared fields on the way
 * out), or nothing for a 204, or the reply itself when it sent something else (a file, a redirect).
 */
export type EndpointHandler<E extends EndpointSpec> = (
  input: EndpointInput<E>,
) => Promise<HandlerAnswerOf<E> | FastifyReply | void>;

export interface EndpointOptions {
  /** Leave the query and body to the handler (list routes validate them with the list engine). */
  parseRequest?: boolean;
  bodyLimit?: number;
  /** Server-side route settings the contract does not know about (ingest keys, identity neutrality). */
  config?: Omit<FastifyContextConfig, 'endpoint' | 'permission' | 'public' | 'reducedApp' | 'maintenanceOpen'>;
  preHandler?: RouteShorthandOptions['preHandler'];
}

/** The route settings the permission guard and the auth hooks read, from the declaration. */
function accessConfig(spec: EndpointSpec): FastifyContextConfig {
  const config: FastifyContextConfig = { endpoint: spec };
  if ('public' in spec.access) config.public = true;
  if ('permission' in spec.access) config.permission = { ...spec.access.permission };
  if (spec.reducedApp) config.reducedApp = spec.reducedApp;
  if (spec.openDuringMaintenance) config.maintenanceOpen = true;
  return config;
}

function responseSchemas(spec: EndpointSpec): Record<number, z.ZodType> {
  const schemas: Record<number, z.ZodType> = {};
  for (const [status, answer] of Object.entries(spec.responses)) {
    if (answer === null || isRawAnswer(answer)) continue;
    schemas[Number(status)] = answer;
  }
  return schemas;
}

/**
 * Registers one route from its contract declaration. Path parameters that do not fit name nothing
 * (404); a query or body that does not fit is a 400 with field errors; the permission guard reads
 * the declared access.
 */
export function route<E extends EndpointSpec>(
  app: FastifyInstance,
  spec: E,
  handler: EndpointHandler<E>,
  options: EndpointOptions = {},
): void {
  const parse = options.parseRequest !== false;
  const bodySchema = spec.body && !isRawBody(spec.body) ? spec.body : undefined;
  app.route({
    method: spec.method,
    url: spec.path,
    config: { ...options.config, ...accessConfig(spec) },
    schema: { response: responseSchemas(spec) },
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    ...(options.preHandler ? { preHandler: options.preHandler } : {}),
    handler: async (request, reply) => {
      let params: unknown = undefined;
      if (spec.params) {
        const parsed = spec.params.safeParse(request.params);
        if (!parsed.success) throw notFound();
        params = parsed.data;
      }
      const query = parse && spec.query ? parseOrThrow(spec.query, request.query ?? {}) : request.query;
      const body = parse && bodySchema ? parseOrThrow(bodySchema, request.body ?? {}) : request.body;
      const answer = await handler({
        request,
        reply,
        params: params as ParamsOf<E>,
        query: query as QueryOf<E>,
        body: body as BodyOf<E>,
      });
      if (answer === reply || reply.sent) return reply;
      const successes = Object.keys(spec.responses).map(Number);
      if (successes.length === 1 && reply.statusCode === 200) reply.status(successes[0]!);
      if (answer === undefined) {
        if (reply.statusCode === 200) reply.status(204);
        return reply.send();
      }
      return answer;
    },
  });
}
