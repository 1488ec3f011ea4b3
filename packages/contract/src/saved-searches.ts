import { z } from 'zod';
import { searchKinds } from './query/fields';
import { searchHitSchema, MAX_QUERY_LENGTH } from './search';
import { alertSeverityValues } from './values';

const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const oneOrMany = <T extends z.ZodType>(item: T, max = 500) => z.union([item, z.array(item).max(max)]);
const kinds = z
  .array(z.enum(searchKinds, { message: `A kind is one of ${searchKinds.join(', ')}.` }))
  .min(1, 'Choose at least one kind of data.')
  .max(searchKinds.length)
  .refine((list) => new Set(list).size === list.length, 'Name each kind once.');
const attackId = z
  .string()
  .trim()
  .regex(/^T\d{4}(?:\.\d{3})?$/, 'An ATT&CK technique id looks like T1059 or T1059.001.');

/** Who sees a saved search besides its owner. */
export const savedSearchSharings = ['private', 'company', 'companies'] as const;
export type SavedSearchSharing = (typeof savedSearchSharings)[number];

/** Shortest and longest time between two scheduled runs. */
export const SAVED_SEARCH_MIN_INTERVAL_MINUTES = 1;
export const SAVED_SEARCH_MAX_INTERVAL_MINUTES = 1440;

/** Most users mailed the reports of one saved search. */
export const SAVED_SEARCH_MAX_SUBSCRIBERS = 200;

/** What an enabled saved search raises for its hits: one alert per run and company with hits. */
export const savedSearchAlertSchema = z
  .object({
    severity: z.enum(alertSeverityValues, { message: `Severity is one of ${alertSeverityValues.join(', ')}.` }),
    /** `{{name}}` is the saved search's name, `{{count}}` the hits of the run. */
    title: z.string().trim().min(1, 'Give the alerts a title.').max(300, 'A title has at most 300 characters.'),
    mitre: z.array(attackId).max(20, 'At most 20 ATT&CK techniques.').default([]),
  })
  .strict();

/**
 * A saved search (spec: name, uuid, enabled, query, type): a query over kinds of data (`type`), owned by
 * a user and seen by them alone, by their company, or (provider staff) by the companies chosen. An
 * enabled one runs every `interval_minutes` over the events that arrived since its last run, once each,
 * and writes a search report for every company with hits.
 */
export const savedSearchSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  query: z.string(),
  /** The kinds of data it searches. */
  type: z.array(z.enum(searchKinds)),
  company_id: z.number().int(),
  owner_id: z.number().int().nullable(),
  owner_name: z.string().nullable(),
  sharing: z.enum(savedSearchSharings),
  /** With `sharing: companies`: the companies that see it and that its runs search. */
  company_ids: z.array(z.number().int()),
  interval_minutes: z.number().int(),
  alert: savedSearchAlertSchema.nullable(),
  /** Users mailed each report with hits its runs write: those in the caller's scope. */
  subscriber_ids: z.array(z.number().int()),
  /** Whether the caller is one of them. */
  subscribed: z.boolean(),
  last_run_at: z.string().nullable(),
  last_hits: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SavedSearch = z.infer<typeof savedSearchSchema>;

const fields = {
  name: z
    .string({ message: 'A saved search needs a name.' })
    .trim()
    .min(1, 'A saved search needs a name.')
    .max(200, 'A name has at most 200 characters.'),
  query: z.string().max(MAX_QUERY_LENGTH, `A query has at most ${MAX_QUERY_LENGTH} characters.`),
  type: kinds,
  enabled: z.boolean(),
  sharing: z.enum(savedSearchSharings, { message: 'Sharing is private, company or companies.' }),
  company_ids: z.array(id).max(500),
  interval_minutes: z
    .number()
    .int()
    .min(SAVED_SEARCH_MIN_INTERVAL_MINUTES, `Run at most every ${SAVED_SEARCH_MIN_INTERVAL_MINUTES} minute.`)
    .max(SAVED_SEARCH_MAX_INTERVAL_MINUTES, `Run at least once a day (${SAVED_SEARCH_MAX_INTERVAL_MINUTES} minutes).`),
  alert: savedSearchAlertSchema.nullable(),
  /**
   * Who is mailed its reports with hits, each a user who sees it and may read search reports. Setting
   * it replaces the subscribers in the caller's scope; those of companies the caller does not see stay.
   */
  subscriber_ids: z.array(id).max(SAVED_SEARCH_MAX_SUBSCRIBERS, `At most ${SAVED_SEARCH_MAX_SUBSCRIBERS} subscribers.`),
};

export const savedSearchCreateSchema = z
  .object({
    name: fields.name,
    query: fields.query,
    type: fields.type,
    enabled: fields.enabled.default(false),
    sharing: fields.sharing.default('private'),
    company_ids: fields.company_ids.default([]),
    interval_minutes: fields.interval_minutes.default(15),
    alert: fields.alert.default(null),
    subscriber_ids: fields.subscriber_ids.default([]),
    /** The company it belongs to; the caller's own when absent. */
    company_id: id.optional(),
  })
  .strict();
export type SavedSearchCreate = z.infer<typeof savedSearchCreateSchema>;

export const savedSearchUpdateSchema = z.object(fields).partial().strict();
export type SavedSearchUpdate = z.infer<typeof savedSearchUpdateSchema>;

export const savedSearchFiltersSchema = z
  .object({
    /** Name or query containing the text. */
    search: z.string().trim().max(200).optional(),
    enabled: z.boolean().optional(),
    /** Saved searches that search any of these kinds. */
    type: oneOrMany(z.enum(searchKinds)).optional(),
    /** Only the caller's own. */
    mine: z.boolean().optional(),
    company_id: oneOrMany(id).optional(),
    id: oneOrMany(id).optional(),
  })
  .strict();
export type SavedSearchFilters = z.infer<typeof savedSearchFiltersSchema>;

/** Most hits a report keeps to show (the count covers them all). */
export const SEARCH_REPORT_FIRST_HITS = 20;

/** What one run of a saved search found in one company. */
export const searchReportSchema = z.object({
  id: z.number().int(),
  saved_search_id: z.number().int().nullable(),
  saved_search_name: z.string(),
  company_id: z.number().int(),
  ran_at: z.string(),
  /** The query and kinds as they were when it ran. */
  query: z.string(),
  type: z.array(z.enum(searchKinds)),
  /** The time span of the events the run read (first and last event time), for reopening the search. */
  from: z.string(),
  to: z.string(),
  hit_count: z.number().int(),
  /** The first hits, newest first (at most SEARCH_REPORT_FIRST_HITS). */
  first_hits: z.array(searchHitSchema),
  alert_id: z.number().int().nullable(),
});
export type SearchReport = z.infer<typeof searchReportSchema>;

export const searchReportFiltersSchema = z
  .object({
    saved_search_id: oneOrMany(id).optional(),
    company_id: oneOrMany(id).optional(),
    ran_from: z.iso.datetime({ offset: true }).optional(),
    ran_to: z.iso.datetime({ offset: true }).optional(),
    search: z.string().trim().max(200).optional(),
  })
  .strict();
export type SearchReportFilters = z.infer<typeof searchReportFiltersSchema>;

/** What running a saved search now did (`POST /api/search/saved/:id/run/`). */
export const savedSearchRunAnswerSchema = z.object({
  hits: z.number().int(),
  reports: z.number().int(),
  alerts: z.number().int(),
});
export type SavedSearchRunAnswer = z.infer<typeof savedSearchRunAnswerSchema>;
