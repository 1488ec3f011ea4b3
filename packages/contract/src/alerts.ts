import { z } from 'zod';
import { alertSeverityValues, alertStatuses, alertResolutions, alertSources } from './values';

export const alertSeveritySchema = z.enum(alertSeverityValues, {
  message: `Severity is one of ${alertSeverityValues.join(', ')}.`,
});
export const alertStatusSchema = z.enum(alertStatuses, { message: `Status is one of ${alertStatuses.join(', ')}.` });
export const alertResolutionSchema = z.enum(alertResolutions, {
  message: `Resolution is one of ${alertResolutions.join(', ')}.`,
});
export const alertSourceSchema = z.enum(alertSources, { message: `Source is one of ${alertSources.join(', ')}.` });
export type AlertSeverity = (typeof alertSeverityValues)[number];
export type AlertStatus = (typeof alertStatuses)[number];
export type AlertResolution = (typeof alertResolutions)[number];
export type AlertSource = (typeof alertSources)[number];

export const alertObservableSchema = z.object({
  kind: z.string(),
  value: z.string(),
  role: z.string().optional(),
});

/** An alert as lists and the detail page show it. */
export const alertSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  title: z.string(),
  description: z.string(),
  severity: alertSeveritySchema,
  /** 0–100, for sorting and thresholds. */
  score: z.number().int(),
  status: alertStatusSchema,
  resolution: alertResolutionSchema.nullable(),
  assignee_id: z.number().int().nullable(),
  source: alertSourceSchema,
  /** What found it: a rule or a policy indicator (the pipeline's DetectionSource). */
  detection: z.record(z.string(), z.unknown()),
  dedup_key: z.string(),
  first_seen: z.string(),
  last_seen: z.string(),
  /** Detections folded into this alert (deduplication). */
  count: z.number().int(),
  observables: z.array(alertObservableSchema),
  mitre: z.array(z.string()),
  tags: z.array(z.string()),
  incident_id: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Alert = z.infer<typeof alertSchema>;

export const alertEventRefSchema = z.object({ kind: alertSourceSchema, id: z.number().int(), ts: z.string() });
export const alertCommentSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  username: z.string().nullable(),
  body: z.string(),
  created_at: z.string(),
});
export type AlertComment = z.infer<typeof alertCommentSchema>;

export const alertHistoryEntrySchema = z.object({
  id: z.number().int(),
  date_time: z.string(),
  username: z.string().nullable(),
  action: z.string(),
  changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })),
});

/** `GET /api/alerts/{id}/`. */
export const alertDetailSchema = alertSchema.extend({
  /** The first 100 linked events; `count` has how many detections there were. */
  events: z.array(alertEventRefSchema),
  comments: z.array(alertCommentSchema),
  history: z.array(alertHistoryEntrySchema),
});
export type AlertDetail = z.infer<typeof alertDetailSchema>;

const tag = z.string().trim().min(1, 'A tag cannot be empty.').max(100, 'A tag is at most 100 characters.');
const tags = z.array(tag).max(50, 'At most 50 tags.');
const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const oneOrMany = <T extends z.ZodType>(item: T, max = 500) => z.union([item, z.array(item).max(max)]);
const datetime = z.iso.datetime({ offset: true, message: 'Use an ISO 8601 date and time, e.g. 2026-11-22T10:00:00Z.' });

/** Filters of `POST /api/alerts/check/`, `/count/` and of bulk actions by filter. */
export const alertFiltersSchema = z
  .object({
    /** Title, description or any observable value contains this. */
    search: z.string().trim().max(200).optional(),
    /** These alerts only (e.g. rows a page shows, re-read after someone else changed them). */
    id: oneOrMany(id).optional(),
    status: oneOrMany(alertStatusSchema, 4).optional(),
    severity: oneOrMany(alertSeveritySchema, 5).optional(),
    source: oneOrMany(alertSourceSchema, 3).optional(),
    assignee_id: oneOrMany(id).optional(),
    /** true: only alerts nobody is assigned to. */
    unassigned: z.boolean().optional(),
    company_id: oneOrMany(id).optional(),
    /** Alerts carrying any of these tags. */
    tags: oneOrMany(tag, 50).optional(),
    incident_id: oneOrMany(id).optional(),
    /** Alerts raised by these stored detection rules (ids of /api/rules/<kind>/). */
    rule_id: oneOrMany(id).optional(),
    first_seen_from: datetime.optional(),
    first_seen_to: datetime.optional(),
    last_seen_from: datetime.optional(),
    last_seen_to: datetime.optional(),
  })
  .strict();
export type AlertFilters = z.infer<typeof alertFiltersSchema>;

/** `PATCH /api/alerts/{id}/`. A resolution goes with resolved/closed and only with them. */
export const alertUpdateSchema = z
  .object({
    status: alertStatusSchema.optional(),
    resolution: alertResolutionSchema.nullable().optional(),
    assignee_id: id.nullable().optional(),
    severity: alertSeveritySchema.optional(),
    tags: tags.optional(),
  })
  .strict();
export type AlertUpdate = z.infer<typeof alertUpdateSchema>;

export const commentCreateSchema = z
  .object({
    body: z
      .string({ message: 'Write the comment.' })
      .trim()
      .min(1, 'Write the comment.')
      .max(20000, 'A comment is at most 20000 characters.'),
  })
  .strict();

export const alertBulkActionSchema = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('assign'), assignee_id: id.nullable() }).strict(),
    z
      .object({
        action: z.literal('set_status'),
        status: alertStatusSchema,
        resolution: alertResolutionSchema.optional(),
      })
      .strict(),
    z.object({ action: z.literal('add_tags'), tags: tags.min(1, 'Name at least one tag.') }).strict(),
    z.object({ action: z.literal('remove_tags'), tags: tags.min(1, 'Name at least one tag.') }).strict(),
    z.object({ action: z.literal('add_to_incident'), incident_id: id }).strict(),
  ],
  { message: 'The action is one of assign, set_status, add_tags, remove_tags, add_to_incident.' },
);
export type AlertBulkAction = z.infer<typeof alertBulkActionSchema>;

/** `POST /api/alerts/bulk/`: the alerts by ids or by the same filters as the list, and one action. */
export const alertBulkSchema = z
  .object({
    ids: z.array(id).min(1, 'Name at least one alert.').max(100_000, 'At most 100000 ids; use a filter.').optional(),
    filter: alertFiltersSchema.optional(),
    action: alertBulkActionSchema,
  })
  .strict()
  .refine((b) => (b.ids === undefined) !== (b.filter === undefined), {
    message: 'Give either ids or a filter, not both.',
    path: ['ids'],
  });
export type AlertBulk = z.infer<typeof alertBulkSchema>;

export const alertBulkAnswerSchema = z.object({ updated: z.number().int().min(0) });

/** One linked event of an alert with its normalised fields and, for network and endpoint, the raw record. */
export const alertLinkedEventSchema = z.object({
  kind: alertSourceSchema,
  id: z.number().int(),
  company_id: z.number().int(),
  ts: z.string(),
  event: z.record(z.string(), z.unknown()),
  raw: z.record(z.string(), z.unknown()).nullable(),
});
export type AlertLinkedEvent = z.infer<typeof alertLinkedEventSchema>;

/**
 * `GET /api/alerts/{id}/events/`: the alert's first linked events (oldest first) of the kinds the
 * caller may view; `hidden` counts those of kinds the caller may not.
 */
export const alertLinkedEventsSchema = z.object({
  results: z.array(alertLinkedEventSchema),
  hidden: z.number().int().min(0),
});
export type AlertLinkedEvents = z.infer<typeof alertLinkedEventsSchema>;
