import { z } from 'zod';
import { alertSeveritySchema, alertSourceSchema } from './alerts';

const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const short = z.string().trim().min(1).max(500);

/** What an alert must have for a matcher to act on it; every condition given must hold. */
export const matcherConditionsSchema = z
  .object({
    severity_at_least: alertSeveritySchema.optional(),
    source: z.array(alertSourceSchema).max(3).optional(),
    /** Rule id of the detection (e.g. a Suricata signature id). */
    rule_id: z.array(short).max(100).optional(),
    /** Indicator type of the detection (ip, domain, sha256…). */
    indicator_type: z.array(short).max(20).optional(),
    /** Case-insensitive substring of the title. */
    title_contains: short.optional(),
    observable_kind: z.array(short).max(20).optional(),
    observable_value: z.array(short).max(100).optional(),
    /** For matchers over all companies: only these. */
    company_id: z.array(id).max(500).optional(),
  })
  .strict();
export type MatcherConditions = z.infer<typeof matcherConditionsSchema>;

export const matcherActionSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('set_severity'), severity: alertSeveritySchema }).strict(),
    z.object({ type: z.literal('assign'), assignee_id: id }).strict(),
    z.object({ type: z.literal('add_tag'), tag: z.string().trim().min(1).max(100) }).strict(),
    z.object({ type: z.literal('add_to_incident'), incident_id: id }).strict(),
    z.object({ type: z.literal('close_as_benign') }).strict(),
    z.object({ type: z.literal('notify_email'), to: z.email({ message: 'Enter an e-mail address.' }) }).strict(),
    z
      .object({
        type: z.literal('notify_webhook'),
        url: z.url({ protocol: /^https?$/, message: 'Enter an http(s) URL.' }).max(2000),
      })
      .strict(),
  ],
  {
    message:
      'The action type is one of set_severity, assign, add_tag, add_to_incident, close_as_benign, notify_email, notify_webhook.',
  },
);
export type MatcherAction = z.infer<typeof matcherActionSchema>;

export const matcherSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  name: z.string(),
  enabled: z.boolean(),
  all_companies: z.boolean(),
  position: z.number().int(),
  conditions: matcherConditionsSchema,
  actions: z.array(matcherActionSchema),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Matcher = z.infer<typeof matcherSchema>;

export const matcherCreateSchema = z
  .object({
    name: z.string({ message: 'Give the matcher a name.' }).trim().min(1, 'Give the matcher a name.').max(200),
    /** Owner company; the caller's own when absent. */
    company_id: id.optional(),
    enabled: z.boolean().optional(),
    all_companies: z.boolean().optional(),
    position: z.number().int().min(0).max(100000).optional(),
    conditions: matcherConditionsSchema,
    actions: z.array(matcherActionSchema).min(1, 'Give at least one action.').max(20),
  })
  .strict();
export type MatcherCreate = z.infer<typeof matcherCreateSchema>;
export const matcherUpdateSchema = matcherCreateSchema.omit({ company_id: true }).partial().strict();
export type MatcherUpdate = z.infer<typeof matcherUpdateSchema>;

export const matcherFiltersSchema = z
  .object({
    search: z.string().trim().max(200).optional(),
    enabled: z.boolean().optional(),
    company_id: z.union([id, z.array(id).max(500)]).optional(),
  })
  .strict();
export type MatcherFilters = z.infer<typeof matcherFiltersSchema>;

/** A committed action: what a matcher did, to which alert. */
export const committedActionSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  matcher_id: z.number().int(),
  matcher_name: z.string().nullable(),
  alert_id: z.number().int(),
  alert_title: z.string().nullable(),
  action: z.string(),
  params: z.record(z.string(), z.unknown()),
  /** applied: the alert was changed; queued: a job sends it; skipped: refused for this alert (see `reason`). */
  outcome: z.enum(['applied', 'queued', 'skipped']),
  /** Why a skipped action was not done. */
  reason: z.string().nullable(),
  job_id: z.number().int().nullable(),
  created_at: z.string(),
});
export type CommittedAction = z.infer<typeof committedActionSchema>;

export const committedActionFiltersSchema = z
  .object({
    matcher_id: z.union([id, z.array(id).max(500)]).optional(),
    alert_id: z.union([id, z.array(id).max(500)]).optional(),
    action: z.union([short, z.array(short).max(10)]).optional(),
    company_id: z.union([id, z.array(id).max(500)]).optional(),
  })
  .strict();
export type CommittedActionFilters = z.infer<typeof committedActionFiltersSchema>;
