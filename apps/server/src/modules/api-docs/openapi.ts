import {
  endpointEntries,
  errorSchema,
  isRawAnswer,
  isRawBody,
  maintenanceErrorSchema,
  validationErrorSchema,
  type EndpointSpec,
} from '@vigil/contract';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, JsonSchema>>;
  components: { securitySchemes: Record<string, JsonSchema>; schemas: Record<string, JsonSchema> };
  tags: { name: string }[];
  security: Record<string, string[]>[];
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const converted = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete converted.$schema;
  return converted;
}

/** `/api/units/:id/` → `/api/units/{id}/`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

function parametersOf(schema: z.ZodType | undefined, place: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const converted = jsonSchema(schema, 'input');
  const properties = (converted.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((converted.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: place,
    required: place === 'path' || required.has(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
    ...(place === 'query' && (property.type === 'array' || property.anyOf) ? { explode: true } : {}),
  }));
}

const errorRef = { $ref: '#/components/schemas/Error' };
const jsonOf = (schema: JsonSchema) => ({ 'application/json': { schema } });

function responsesOf(spec: EndpointSpec): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, answer] of Object.entries(spec.responses)) {
    if (answer === null) responses[status] = { description: 'Done; no content.' };
    else if (isRawAnswer(answer)) {
      responses[status] = {
        description: answer.description,
        ...(answer.contentType ? { content: { [answer.contentType]: { schema: { type: 'string' } } } } : {}),
      };
    } else responses[status] = { description: 'Success.', content: jsonOf(jsonSchema(answer, 'output')) };
  }
  if (spec.params || spec.query || spec.body) {
    responses['400'] = {
      description: 'The request is not valid: field name → problems.',
      content: jsonOf({ $ref: '#/components/schemas/ValidationError' }),
    };
  }
  if (!('public' in spec.access)) {
    responses['401'] = { description: 'Not signed in.', content: jsonOf(errorRef) };
    responses['403'] = {
      description:
        'permission' in spec.access
          ? 'The caller lacks the permission, or the request failed the anti-forgery check.'
          : 'The request failed the anti-forgery check, or sign-in is not complete.',
      content: jsonOf(errorRef),
    };
  }
  if (spec.params)
    responses['404'] = { description: 'Nothing with that id in the caller’s scope.', content: jsonOf(errorRef) };
  if (!spec.openDuringMaintenance)
    responses['423'] = {
      description:
        'The server is being updated (migrations, or maintenance turned on); try again after `Retry-After` seconds.',
      content: jsonOf({ $ref: '#/components/schemas/Maintenance' }),
    };
  return responses;
}

function operationOf(name: string, spec: EndpointSpec): JsonSchema {
  const operation: JsonSchema = {
    operationId: name,
    summary: spec.summary,
    tags: [spec.tag],
    parameters: [...parametersOf(spec.params, 'path'), ...parametersOf(spec.query, 'query')],
    responses: responsesOf(spec),
  };
  if (spec.description) operation.description = spec.description;
  if ('permission' in spec.access) operation['x-permission'] = { ...spec.access.permission };
  if (spec.ingestKey) operation.security = [{ ingestKey: [] }];
  else if ('public' in spec.access) operation.security = [];
  if (spec.reducedApp === true) operation['x-before-two-factor'] = true;
  if (spec.reducedApp) operation['x-while-password-expired'] = true;
  if (spec.body) {
    operation.requestBody = isRawBody(spec.body)
      ? {
          required: true,
          description: spec.body.description,
          content: Object.fromEntries(spec.body.contentTypes.map((type) => [type, { schema: { type: 'string' } }])),
        }
      : { required: spec.method !== 'GET', content: jsonOf(jsonSchema(spec.body, 'input')) };
  }
  return operation;
}

/** The OpenAPI 3.1 document of every declared endpoint. */
export function buildOpenApi(version: string): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  for (const { name, spec } of endpointEntries()) {
    const path = openApiPath(spec.path);
    (paths[path] ??= {})[spec.method.toLowerCase()] = operationOf(name, spec);
    tags.add(spec.tag);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vigil API',
      version,
      description:
        'The HTTP API of the Vigil console. JSON in snake_case both ways. Signed-in browsers send the session ' +
        'cookie and echo the `csrf_token` cookie in `X-CSRFToken` (or the `XSRF-TOKEN` cookie in `X-XSRF-TOKEN`) on ' +
        'every unsafe method; machine clients send ' +
        '`Authorization: Token <key>` instead; sensors send `Authorization: Bearer <ingest key>` to the ingest endpoints.',
    },
    tags: [...tags].sort().map((name) => ({ name })),
    security: [{ session: [] }, { token: [] }],
    paths,
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'vigil_session' },
        token: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Token <key>`' },
        ingestKey: { type: 'http', scheme: 'bearer', description: 'An ingest key bound to one company.' },
      },
      schemas: {
        Error: jsonSchema(errorSchema, 'output'),
        ValidationError: jsonSchema(validationErrorSchema, 'output'),
        Maintenance: jsonSchema(maintenanceErrorSchema, 'output'),
      },
    },
  };
}
