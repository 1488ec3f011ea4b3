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
  preHandlerAsyncHookHandler,
  RouteShorthandOptions,
} from 'fastify';
import type { z } from 'zod';
import { unstorableTextErrors } from '../safe-text';
import { notFound, parseOrThrow, ValidationError } from './errors';

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

export interface EndpointOptions<E extends EndpointSpec = EndpointSpec> {
  /** Leave the query and body to the handler (list routes validate them with the list engine). */
  parseRequest?: boolean;
  bodyLimit?: number;
  /** Server-side route settings the contract does not know about (ingest keys, identity neutrality). */
  config?: Omit<FastifyContextConfig, 'endpoint' | 'permission' | 'public' | 'reducedApp' | 'maintenanceOpen'>;
  preHandler?: RouteShorthandOptions['preHandler'];
  /**
   * Whether the object the path names exists for the caller, asked before the query and body are
   * checked: a path naming nothing the caller can see answers 404, whatever the body. It gets the
   * parsed path parameters (a path that does not parse is a 404 before it is asked) and may also
   * throw its own error (a service's 404). Runs after the permission guard and `preHandler`.
   */
  exists?: (params: ParamsOf<E>, request: FastifyRequest) => Promise<boolean>;
}

/** The route settings the permission guard and the auth hooks read, from the declaration. */
function accessConfig(spec: EndpointSpec): FastifyContextConfig {
  const config: FastifyContextConfig = { endpoint: spec };
  if ('public' in spec.access) config.public = true;
  if ('permission' in spec.access) config.permission = { ...spec.access.permission };
  if (spec.reducedApp) config.reducedApp = spec.reducedApp;
  if (spec.openDuringMaintenance) config.maintenanceOpen = true;
  if (spec.readsOnly) config.identityNeutral = true;
  return config;
}

/** The declared path parameters of a request, or a 404 when they do not fit. */
function pathParams<E extends EndpointSpec>(spec: E, request: FastifyRequest): ParamsOf<E> {
  if (!spec.params) return undefined as ParamsOf<E>;
  const parsed = spec.params.safeParse(request.params);
  if (!parsed.success) throw notFound();
  if (unstorableTextErrors(parsed.data) !== null) throw notFound();
  return parsed.data as ParamsOf<E>;
}

/** The route's preHandlers: the given ones, then the existence check. */
function preHandlers<E extends EndpointSpec>(
  spec: E,
  options: EndpointOptions<E>,
): RouteShorthandOptions['preHandler'] {
  const { exists } = options;
  if (!exists) return options.preHandler;
  const given = options.preHandler
    ? Array.isArray(options.preHandler)
      ? options.preHandler
      : [options.preHandler]
    : [];
  const existsFirst: preHandlerAsyncHookHandler = async (request) => {
    if (!(await exists(pathParams(spec, request), request))) throw notFound();
  };
  return [...given, existsFirst];
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
 * (404); with `exists`, a path naming nothing the caller can see is a 404 before the body is
 * checked; a query or body that does not fit is a 400 with field errors; the permission guard
 * reads the declared access. Text that cannot be stored (U+0000, a lone surrogate) at any depth of
 * a declared query or JSON body is refused with field errors naming its path, for every route, list
 * routes included, before any handler or list engine sees it.
 */
export function route<E extends EndpointSpec>(
  app: FastifyInstance,
  spec: E,
  handler: EndpointHandler<E>,
  options: EndpointOptions<E> = {},
): void {
  const parse = options.parseRequest !== false;
  const bodySchema = spec.body && !isRawBody(spec.body) ? spec.body : undefined;
  const preHandler = preHandlers(spec, options);
  app.route({
    method: spec.method,
    url: spec.path,
    config: { ...options.config, ...accessConfig(spec) },
    schema: { response: responseSchemas(spec) },
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    ...(preHandler ? { preHandler } : {}),
    handler: async (request, reply) => {
      const params = pathParams(spec, request);
      const textErrors = {
        ...(spec.query ? unstorableTextErrors(request.query) : null),
        ...(bodySchema ? unstorableTextErrors(request.body) : null),
      };
      if (Object.keys(textErrors).length > 0) throw new ValidationError(textErrors);
      const query = parse && spec.query ? parseOrThrow(spec.query, request.query ?? {}) : request.query;
      const body = parse && bodySchema ? parseOrThrow(bodySchema, request.body ?? {}) : request.body;
      const answer = await handler({
        request,
        reply,
        params,
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
