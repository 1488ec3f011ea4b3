import { isIP } from 'node:net';
import {
  GRAPH_EXPAND_DEFAULT_LIMIT,
  GRAPH_EXPAND_MAX_DAYS,
  type GraphAnswer,
  type GraphExpandAnswer,
  type GraphExpandRequest,
  type GraphQuery,
} from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { can, type Actor } from '../../http/actor';
import { forbidden, notFound, ValidationError } from '../../http/errors';
import { inScope } from '../../http/tenancy';
import { normaliseValue } from './graph-builder';
import { expandNode } from './graph.expand.repository';
import { alertGraph, incidentGraph, type GraphAccess } from './graph.repository';

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
export class GraphService {
  constructor(private readonly db: Queryable) {}

  private loadRoot(access: GraphAccess, kind: 'alert' | 'incident', id: number): Promise<GraphAnswer | null> {
    if (kind === 'alert') return alertGraph(this.db, access, id, GRAPH_EXPAND_MAX_DAYS);
    return access.incidents ? incidentGraph(this.db, access, id, GRAPH_EXPAND_MAX_DAYS) : Promise.resolve(null);
  }

  async graph(actor: Actor, query: GraphQuery): Promise<GraphAnswer> {
    const access = accessOf(actor);
    if (query.incident !== undefined && !access.incidents) throw forbidden();
    const graph =
      query.alert !== undefined
        ? await this.loadRoot(access, 'alert', query.alert)
        : await this.loadRoot(access, 'incident', query.incident as number);
    if (!graph) throw notFound();
    return graph;
  }

  async expand(actor: Actor, input: GraphExpandRequest): Promise<GraphExpandAnswer> {
    const value = normaliseValue(input.node.kind, input.node.value);
    checkValue(input.node.kind, value);
    if (input.company_id !== undefined && !inScope(actor.scope, input.company_id)) throw notFound();
    const to = input.around?.to ?? new Date().toISOString();
    const from = input.around?.from ?? new Date(Date.parse(to) - 7 * DAY_MS).toISOString();
    const access = accessOf(actor);
    const answer = await expandNode(
      this.db,
      access,
      {
        kind: input.node.kind,
        value,
        from,
        to,
        limit: input.limit ?? GRAPH_EXPAND_DEFAULT_LIMIT,
        companyId: input.company_id,
      },
      (kind, id) => this.loadRoot(access, kind, id),
    );
    if (!answer) throw notFound();
    return answer;
  }
}
