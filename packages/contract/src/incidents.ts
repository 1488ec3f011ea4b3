import { z } from 'zod';
import { incidentStatuses, taskStatuses } from './values';
import { alertSeveritySchema } from './alerts';

export const incidentStatusSchema = z.enum(incidentStatuses, {
  message: `Status is one of ${incidentStatuses.join(', ')}.`,
});

export const taskStatusSchema = z.enum(taskStatuses, { message: `Status is one of ${taskStatuses.join(', ')}.` });

/** One SLA timer, as TheHive 5 keeps them: a target from the severity, and whether it was missed. */
export const slaTimerSchema = z.object({
  target_minutes: z.number().int(),
  due_at: z.string(),
  /** When the timer stopped (acknowledged / resolved), or null while it runs. */
  done_at: z.string().nullable(),
  /** Minutes from creation to done_at, or to now while it runs. */
  elapsed_minutes: z.number().int(),
  breached: z.boolean(),
});

export const incidentSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  title: z.string(),
  description: z.string(),
  severity: alertSeveritySchema,
  status: incidentStatusSchema,
  assignee_id: z.number().int().nullable(),
  group_key: z.string().nullable(),
  observables: z.array(z.object({ kind: z.string(), value: z.string() })),
  alert_count: z.number().int(),
  acknowledged_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
  sla: z.object({ acknowledge: slaTimerSchema, resolve: slaTimerSchema }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Incident = z.infer<typeof incidentSchema>;

export const incidentTimelineEntrySchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  user_id: z.number().int().nullable(),
  username: z.string().nullable(),
  /** Markdown as written, for comments. */
  body: z.string(),
  data: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});

export const incidentTaskSchema = z.object({
  id: z.number().int(),
  incident_id: z.number().int(),
  title: z.string(),
  status: taskStatusSchema,
  assignee_id: z.number().int().nullable(),
  due_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type IncidentTask = z.infer<typeof incidentTaskSchema>;

export const incidentDetailSchema = incidentSchema.extend({
  alert_ids: z.array(z.number().int()),
  timeline: z.array(incidentTimelineEntrySchema),
  tasks: z.array(incidentTaskSchema),
});
export type IncidentDetail = z.infer<typeof incidentDetailSchema>;

const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const title = z
  .string({ message: 'Give it a title.' })
  .trim()
  .min(1, 'Give it a title.')
  .max(300, 'A title is at most 300 characters.');
const description = z.string().trim().max(20000, 'A description is at most 20000 characters.');
const datetime = z.iso.datetime({ offset: true, message: 'Use an ISO 8601 date and time, e.g. 2026-11-22T10:00:00Z.' });
const oneOrMany = <T extends z.ZodType>(item: T, max = 500) => z.union([item, z.array(item).max(max)]);

/** `POST /api/incidents/`: an incident made by hand from alerts of one company. */
export const incidentCreateSchema = z
  .object({
    title,
    description: description.optional(),
    severity: alertSeveritySchema.optional(),
    assignee_id: id.nullable().optional(),
    alert_ids: z.array(id).min(1, 'Name at least one alert.').max(1000, 'At most 1000 alerts.'),
  })
  .strict();
export type IncidentCreate = z.infer<typeof incidentCreateSchema>;

export const incidentUpdateSchema = z
  .object({
    title: title.optional(),
    description: description.optional(),
    severity: alertSeveritySchema.optional(),
    status: incidentStatusSchema.optional(),
    assignee_id: id.nullable().optional(),
    /** Alerts to link (they leave any incident they were in). */
    add_alert_ids: z.array(id).max(1000).optional(),
    /** Alerts to unlink from this incident (they go back to the queue on their own). */
    remove_alert_ids: z.array(id).max(1000).optional(),
    /** Why the status changes (the resolution, when resolving or closing); kept in the timeline. */
    summary: z.string().trim().max(5000, 'A summary is at most 5000 characters.').optional(),
  })
  .strict();
export type IncidentUpdate = z.infer<typeof incidentUpdateSchema>;

export const incidentFiltersSchema = z
  .object({
    search: z.string().trim().max(200).optional(),
    status: oneOrMany(incidentStatusSchema, 5).optional(),
    severity: oneOrMany(alertSeveritySchema, 5).optional(),
    assignee_id: oneOrMany(id).optional(),
    company_id: oneOrMany(id).optional(),
    created_from: datetime.optional(),
    created_to: datetime.optional(),
  })
  .strict();
export type IncidentFilters = z.infer<typeof incidentFiltersSchema>;

export const taskCreateSchema = z
  .object({
    title,
    status: taskStatusSchema.optional(),
    assignee_id: id.nullable().optional(),
    due_at: datetime.nullable().optional(),
  })
  .strict();
export type TaskCreate = z.infer<typeof taskCreateSchema>;
export const taskUpdateSchema = taskCreateSchema.partial().strict();
export type TaskUpdate = z.infer<typeof taskUpdateSchema>;

/** Grouping of new alerts into incidents, per company. */
export const incidentGroupingSchema = z
  .object({
    enabled: z.boolean(),
    by_host: z.boolean(),
    by_user: z.boolean(),
    window_minutes: z
      .number()
      .int()
      .min(1, 'The window is 1 to 10080 minutes.')
      .max(10080, 'The window is 1 to 10080 minutes.'),
  })
  .strict();
export type IncidentGrouping = z.infer<typeof incidentGroupingSchema>;
