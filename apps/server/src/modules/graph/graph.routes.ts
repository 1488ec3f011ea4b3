import { isIP } from 'node:net';
import {
  GRAPH_EXPAND_DEFAULT_LIMIT,
  GRAPH_EXPAND_MAX_DAYS,
  graphExpandSchema,
  graphQuerySchema,
  type GraphAnswer,
} from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { can, requireActor, type Actor } from '../../http/actor';
import { forbidden, notFound, parseOrThrow, ValidationError } from '../../http/errors';
import { inScope } from '../../http/tenancy';
import { normaliseValue } from './graph-builder';
import { alertGraph, expandNode, incidentGraph, type GraphAccess } from './graph.repository';

const view = { config: { permission: { basename: 'alerts', action: 'view' } } };
const DAY_MS = 86_400_000;

/** What the caller may read into a graph: events and incidents need their own view permission. */
function accessOf(actor: Actor): GraphAccess {
  return {
    scope: actor.scope,
    network: can(actor, 'network', 'view'),
    endpoint: can(actor, 'eclipse_events', 'view'),
    mail: can(actor, 'mailing', 'view'),
    incidents: can(actor, 'incidents', 'view'),
  };
}

/** Node values whose form is fixed: addresses and ids. */
function checkValue(kind: string, value: string): void {
  if (kind === 'ip' && isIP(value) === 0) throw ValidationError.field('node.value', 'Give an IPv4 or IPv6 address.');
  if ((kind === 'alert' || kind === 'incident' || kind === 'mail') && !/^[1-9]\d{0,15}$/.test(value))
    throw ValidationError.field('node.value', 'Give the id as a positive whole number.');
}

/** The investigation graph of an alert or an incident, and expansion of one node. */
export async function registerGraph(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;

  const loadRoot = async (access: GraphAccess, kind: 'alert' | 'incident', id: number): Promise<GraphAnswer | null> =>
    kind === 'alert'
      ? alertGraph(db, access, id, GRAPH_EXPAND_MAX_DAYS)
      : access.incidents
        ? incidentGraph(db, access, id, GRAPH_EXPAND_MAX_DAYS)
        : null;

  app.get('/api/graph/', view, async (request) => {
    const actor = requireActor(request);
    const query = parseOrThrow(graphQuerySchema, request.query ?? {});
    const access = accessOf(actor);
    if (query.incident !== undefined && !access.incidents) throw forbidden();
    const graph =
      query.alert !== undefined
        ? await loadRoot(access, 'alert', query.alert)
        : await loadRoot(access, 'incident', query.incident as number);
    if (!graph) throw notFound();
    return graph;
  });

  app.post('/api/graph/expand/', view, async (request) => {
    const actor = requireActor(request);
    const input = parseOrThrow(graphExpandSchema, request.body ?? {});
    const value = normaliseValue(input.node.kind, input.node.value);
    checkValue(input.node.kind, value);
    if (input.company_id !== undefined && !inScope(actor.scope, input.company_id)) throw notFound();
    const to = input.around?.to ?? new Date().toISOString();
    const from = input.around?.from ?? new Date(Date.parse(to) - 7 * DAY_MS).toISOString();
    const access = accessOf(actor);
    const answer = await expandNode(
      db,
      access,
      {
        kind: input.node.kind,
        value,
        from,
        to,
        limit: input.limit ?? GRAPH_EXPAND_DEFAULT_LIMIT,
        companyId: input.company_id,
      },
      (kind, id) => loadRoot(access, kind, id),
    );
    if (!answer) throw notFound();
    return answer;
  });
}
