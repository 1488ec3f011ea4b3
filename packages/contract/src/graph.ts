import { z } from 'zod';
import { graphNodeKinds, type GraphNodeKind } from './values';

/**
 * The investigation graph: the entities an alert or an incident touches (hosts, accounts,
 * addresses, names, files, mail) as nodes and the relations seen between them in stored events
 * as edges. Node ids are `<kind>:<value>`, so one entity reached twice is one node.
 */

export const graphNodeKindSchema = z.enum(graphNodeKinds, {
  message: `The kind is one of ${graphNodeKinds.join(', ')}.`,
});

/**
 * How two nodes are related:
 * observed (alert → observable), member_of (alert → incident), flow (IP → IP), dns / http / tls
 * (IP → domain it resolved or asked for), requested (IP → URL), transferred (IP → file hash),
 * logon (host → user), ran (host → process), spawned (parent process → process),
 * connected (process → IP), wrote (process → file), hash (process or file → its hash),
 * sender / recipient / link / attachment (mail → address, URL, attachment hash), has_address (host → IP).
 */
export const graphEdgeKinds = [
  'observed',
  'member_of',
  'flow',
  'dns',
  'http',
  'tls',
  'requested',
  'transferred',
  'logon',
  'ran',
  'spawned',
  'connected',
  'wrote',
  'hash',
  'sender',
  'recipient',
  'link',
  'attachment',
  'has_address',
] as const;
export type GraphEdgeKind = (typeof graphEdgeKinds)[number];

export const graphNodeSchema = z.object({
  /** `<kind>:<value>`, e.g. `ip:10.0.0.5`, `alert:17`. */
  id: z.string(),
  kind: graphNodeKindSchema,
  /** The entity's value: the address, name, hash, or the alert's / incident's / mail's id. */
  value: z.string(),
  label: z.string(),
  /** Facts worth showing beside the node (title, severity, status, company_id, subject…). */
  data: z.record(z.string(), z.unknown()),
});
export type GraphNode = z.infer<typeof graphNodeSchema>;

export const graphEdgeSchema = z.object({
  /** `<kind>|<source>|<target>`. */
  id: z.string(),
  source: z.string(),
  target: z.string(),
  kind: z.enum(graphEdgeKinds),
  /** How many stored events (or alerts) show the relation. */
  count: z.number().int(),
  first_seen: z.string().nullable(),
  last_seen: z.string().nullable(),
});
export type GraphEdge = z.infer<typeof graphEdgeSchema>;

export const graphWindowSchema = z.object({ from: z.string(), to: z.string() });
export type GraphWindow = z.infer<typeof graphWindowSchema>;

/** `GET /api/graph/?alert=ID` or `?incident=ID`. */
export const graphAnswerSchema = z.object({
  /** Id of the node the graph is about (`alert:17` or `incident:3`). */
  root: z.string(),
  /** The company of the root: expansions stay in it. */
  company_id: z.number().int(),
  /** The time window expansions default to: the root's activity ± 7 days. */
  around: graphWindowSchema,
  nodes: z.array(graphNodeSchema),
  edges: z.array(graphEdgeSchema),
  /** Set when the incident had more alerts or linked events than one graph takes. */
  truncated: z.boolean(),
});
export type GraphAnswer = z.infer<typeof graphAnswerSchema>;

const id = z.coerce
  .number({ message: 'Give a whole number.' })
  .int('Give a whole number.')
  .min(1, 'Give a positive id.')
  .max(Number.MAX_SAFE_INTEGER, 'The id is too large.');

/** Query string of `GET /api/graph/`: exactly one of alert and incident. */
export const graphQuerySchema = z
  .object({ alert: id.optional(), incident: id.optional() })
  .strict()
  .superRefine((value, ctx) => {
    if (value.alert === undefined && value.incident === undefined) {
      ctx.addIssue({ code: 'custom', path: ['alert'], message: 'Give an alert or an incident.' });
    } else if (value.alert !== undefined && value.incident !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['incident'], message: 'Give an alert or an incident, not both.' });
    }
  });
export type GraphQuery = z.infer<typeof graphQuerySchema>;

export const GRAPH_EXPAND_DEFAULT_LIMIT = 100;
export const GRAPH_EXPAND_MAX_LIMIT = 500;
/** Longest time window one expansion may read. */
export const GRAPH_EXPAND_MAX_DAYS = 93;

const datetime = z.iso.datetime({ offset: true, message: 'Use an ISO 8601 date and time, e.g. 2026-11-22T10:00:00Z.' });

/** `POST /api/graph/expand/`. */
export const graphExpandSchema = z
  .object({
    node: z
      .object({
        kind: graphNodeKindSchema,
        value: z
          .string({ message: 'Give the node value.' })
          .trim()
          .min(1, 'Give the node value.')
          .max(2048, 'A node value is at most 2048 characters.'),
      })
      .strict(),
    /** Only events in this window; the last 7 days when absent. */
    around: z
      .object({ from: datetime, to: datetime })
      .strict()
      .refine((w) => Date.parse(w.from) < Date.parse(w.to), {
        message: 'The window ends after it starts.',
        path: ['to'],
      })
      .refine((w) => Date.parse(w.to) - Date.parse(w.from) <= GRAPH_EXPAND_MAX_DAYS * 86_400_000, {
        message: `The window is at most ${GRAPH_EXPAND_MAX_DAYS} days.`,
        path: ['to'],
      })
      .optional(),
    /** Most neighbours to answer (1–500, 100 when absent). */
    limit: z
      .number({ message: 'Give a whole number from 1 to 500.' })
      .int('Give a whole number from 1 to 500.')
      .min(1, 'Give a whole number from 1 to 500.')
      .max(GRAPH_EXPAND_MAX_LIMIT, 'Give a whole number from 1 to 500.')
      .optional(),
    /** The company to look in (the graph root's); every visible company when absent. */
    company_id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .strict();
export type GraphExpandRequest = z.infer<typeof graphExpandSchema>;

/** The neighbours of one node. */
export const graphExpandAnswerSchema = z.object({
  /** Id of the expanded node. */
  node: z.string(),
  around: graphWindowSchema,
  /** The expanded node and its neighbours. */
  nodes: z.array(graphNodeSchema),
  edges: z.array(graphEdgeSchema),
  /** Neighbours answered. */
  shown: z.number().int(),
  /** Neighbours found in the window (at least `shown`). */
  total: z.number().int(),
  /** More neighbours exist than were answered. */
  truncated: z.boolean(),
});
export type GraphExpandAnswer = z.infer<typeof graphExpandAnswerSchema>;

/** Id of a node: `<kind>:<value>`. */
export const graphNodeId = (kind: GraphNodeKind, value: string): string => `${kind}:${value}`;
