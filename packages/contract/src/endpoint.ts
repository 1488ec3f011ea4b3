import { z } from 'zod';
import { countAnswerSchema, listAnswerSchema, listQuerySchema } from './list';
import type { ResourceBasename } from './resources';

/**
 * Endpoint declarations: every /api/ route is one declaration here — its method, path, path and
 * query parameters, body, answers and who may call it. The server registers its routes from these
 * (validating requests and serialising answers with the same schemas, so an answer can never carry
 * a field the declaration does not name), the web app calls them through one typed client, and the
 * OpenAPI document is generated from them.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call an endpoint. */
export type EndpointAccess =
  /** Anyone, signed in or not (sign-in, activation links, health, ingest with its own key). */
  | { readonly public: true }
  /** Any signed-in caller. */
  | { readonly signedIn: true }
  /** A signed-in caller holding this permission. */
  | { readonly permission: { readonly basename: string; readonly action: string } };

/** Which half-signed-in states an endpoint answers in (see `EndpointSpec.reducedApp`). */
export type ReducedAppStates = true | 'password_expired';

/** An answer that is not JSON (a file, a CSV export, a stream of live events, a redirect). */
export interface RawAnswer {
  readonly raw: true;
  /** Media type of the answer, e.g. `text/csv`; none for a redirect or an empty answer. */
  readonly contentType?: string;
  readonly description: string;
}

/** One possible answer: a schema of its JSON body, a raw body, or `null` for no body (204). */
export type AnswerSpec = z.ZodType | RawAnswer | null;

/** A body that is not JSON (ingest lines, a mail message). */
export interface RawBody {
  readonly raw: true;
  readonly contentTypes: readonly string[];
  readonly description: string;
}

export interface EndpointSpec {
  readonly method: HttpMethod;
  /** Path with `:name` parameters, always starting with `/api/` and ending in `/`. */
  readonly path: string;
  /** Short title shown in the API reference. */
  readonly summary: string;
  /** Longer explanation, when the title does not say it all. */
  readonly description?: string;
  /** Group in the API reference (usually the resource's basename). */
  readonly tag: string;
  readonly access: EndpointAccess;
  /**
   * Answers a session that is only half signed in (the reduced app). `true`: before the one-time
   * code of the sign-in is given, and while the password is expired; `'password_expired'`: only in
   * the second state (the code given, the password still to be replaced). Every endpoint without
   * it refuses both states (403 `two_factor_required` / `password_expired`).
   */
  readonly reducedApp?: ReducedAppStates;
  /** Authenticated by an ingest key (`Authorization: Bearer …`) instead of a user. */
  readonly ingestKey?: boolean;
  /** Answers while the server is in maintenance (everything else answers 423 then). */
  readonly openDuringMaintenance?: boolean;
  /**
   * A POST that only reads (a list page or count whose filters travel in the body): it changes
   * nothing, so it does not make every server process forget the identities it remembers, as any
   * other write does.
   */
  readonly readsOnly?: boolean;
  /** Schema of the path parameters (values arrive as text; use coercing schemas for numbers). */
  readonly params?: z.ZodType;
  /** Schema of the query string. */
  readonly query?: z.ZodType;
  /** Schema of the JSON body, or a raw body. */
  readonly body?: z.ZodType | RawBody;
  /** Answers by status code (only the successful ones; errors have the documented error shapes). */
  readonly responses: Readonly<Record<number, AnswerSpec>>;
  /** A list page's endpoint (`POST …/check/`): the list's filters and orderings. */
  readonly listShape?: ListShape;
}

/**
 * What a list resource is, declared once: the server's list engine checks its orderings, the typed
 * client carries it (filters with their URL kinds), and the console's list pages are made from it.
 */
export interface ListShape {
  /** The records' resource kind (the permission's basename). */
  readonly basename: ResourceBasename;
  /** Names a list may be ordered by (`-name` for descending). */
  readonly orderings: readonly string[];
  /** Ordering used when the query names none. */
  readonly defaultOrdering: readonly string[];
  /** Schema of the filters in the body (an object; each field text, a number or a boolean, or a list). */
  readonly filters: z.ZodType;
}

/** Declares one endpoint; the declaration keeps its literal types for the server and the client. */
export function endpoint<const E extends EndpointSpec>(spec: E): E {
  return spec;
}

/** A raw (non-JSON) answer. */
export function rawAnswer(description: string, contentType?: string): RawAnswer {
  return { raw: true, description, ...(contentType ? { contentType } : {}) };
}

/** A raw (non-JSON) body. */
export function rawBody(description: string, contentTypes: readonly string[]): RawBody {
  return { raw: true, description, contentTypes };
}

export function isRawAnswer(spec: AnswerSpec | undefined): spec is RawAnswer {
  return typeof spec === 'object' && spec !== null && 'raw' in spec;
}

export function isRawBody(spec: EndpointSpec['body']): spec is RawBody {
  return typeof spec === 'object' && spec !== null && 'raw' in spec && (spec as RawBody).raw === true;
}

/** Path parameter `id`: a positive whole number (a path naming anything else is answered 404). */
export const idParams = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

/** The answer of a successful write that has nothing to say beyond success (204). */
export const noContent = null;

/** Permission access shorthand. */
export function permission(basename: string, action: string): EndpointAccess {
  return { permission: { basename, action } };
}

export const signedIn: EndpointAccess = { signedIn: true };
export const publicAccess: EndpointAccess = { public: true };

/**
 * The two list endpoints every list resource has: `POST <base>check/` (a page) and
 * `POST <base>count/` (how many match), both filtered by the same body.
 */
export function listEndpoints<
  const Item extends z.ZodType,
  const Filters extends z.ZodType,
  const Orderings extends readonly string[],
  const DefaultOrdering extends readonly string[],
>(options: {
  base: string;
  tag: string;
  /** What one row is called in the reference, e.g. "unit". */
  noun: string;
  item: Item;
  filters: Filters;
  access: EndpointAccess;
  params?: z.ZodType;
  /** Names a list may be ordered by (`-name` for descending). */
  orderings: Orderings;
  /** Ordering used when the query names none. */
  defaultOrdering: DefaultOrdering;
  /** The records' resource kind, when `access` names no permission to take it from. */
  basename?: ResourceBasename;
}) {
  const params = options.params ? { params: options.params } : {};
  const basename =
    'permission' in options.access ? (options.access.permission.basename as ResourceBasename) : options.basename;
  if (!basename) throw new Error(`${options.base}: a list without a permission names its basename.`);
  /** The list's shape, shared by the server's list engine and the console's list pages. */
  const spec = {
    basename,
    orderings: options.orderings,
    defaultOrdering: options.defaultOrdering,
    filters: options.filters,
  };
  return {
    spec,
    list: endpoint({
      method: 'POST',
      path: `${options.base}check/`,
      summary: `List ${options.noun} records`,
      description:
        'One page of the records matching the filters in the body, in the order of `ordering`. `next` and ' +
        '`previous` lead to the neighbouring pages.',
      tag: options.tag,
      access: options.access,
      readsOnly: true,
      ...params,
      query: listQuerySchema,
      body: options.filters,
      responses: { 200: listAnswerSchema(options.item) },
      listShape: spec,
    }),
    count: endpoint({
      method: 'POST',
      path: `${options.base}count/`,
      summary: `Count ${options.noun} records`,
      tag: options.tag,
      access: options.access,
      readsOnly: true,
      ...params,
      body: options.filters,
      responses: { 200: countAnswerSchema },
    }),
  };
}

/** Schema type of an endpoint's successful JSON answers. */
type FirstJson<R> = Extract<R[keyof R], z.ZodType>;

/** The JSON answer an endpoint sends (snake_case, as on the wire). */
export type AnswerOf<E extends EndpointSpec> = [FirstJson<E['responses']>] extends [never]
  ? void
  : z.output<FirstJson<E['responses']>>;

/** What the server's handler may hand back (the input side of the answer schema). */
export type HandlerAnswerOf<E extends EndpointSpec> = [FirstJson<E['responses']>] extends [never]
  ? void
  : z.input<FirstJson<E['responses']>>;

export type ParamsOf<E extends EndpointSpec> = E['params'] extends z.ZodType ? z.output<E['params']> : undefined;
export type QueryOf<E extends EndpointSpec> = E['query'] extends z.ZodType ? z.output<E['query']> : undefined;
export type BodyOf<E extends EndpointSpec> = E['body'] extends z.ZodType ? z.output<E['body']> : undefined;
/** What a caller sends (the input side of the schemas). */
export type ParamsInputOf<E extends EndpointSpec> = E['params'] extends z.ZodType ? z.input<E['params']> : undefined;
export type QueryInputOf<E extends EndpointSpec> = E['query'] extends z.ZodType ? z.input<E['query']> : undefined;
export type BodyInputOf<E extends EndpointSpec> = E['body'] extends z.ZodType ? z.input<E['body']> : undefined;

export { endpointUrl } from './client/url';
