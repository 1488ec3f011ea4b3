import { z } from 'zod';
import { searchKinds } from './query/fields';

const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const instant = z.iso.datetime({ offset: true, message: 'Give an ISO 8601 date and time with its offset.' });

/** Longest query text accepted. */
export const MAX_QUERY_LENGTH = 10_000;

/** What a search reads: which data, the query (docs/query-language.md) and the time range. */
export const searchBodySchema = z
  .object({
    kinds: z
      .array(z.enum(searchKinds, { message: `A kind is one of ${searchKinds.join(', ')}.` }))
      .min(1, 'Choose at least one kind of data.')
      .max(searchKinds.length)
      .refine((kinds) => new Set(kinds).size === kinds.length, 'Name each kind once.'),
    /** The query; empty finds everything in the time range. */
    query: z.string().max(MAX_QUERY_LENGTH, `A query has at most ${MAX_QUERY_LENGTH} characters.`),
    from: instant,
    to: instant,
    /** Only these companies (of those the caller sees). */
    company_id: z.union([id, z.array(id).max(500)]).optional(),
  })
  .strict()
  .refine((body) => Date.parse(body.from) <= Date.parse(body.to), {
    message: 'The start of the time range must not be after its end.',
    path: ['to'],
  });
export type SearchBody = z.infer<typeof searchBodySchema>;

/** Most values `values/` answers with, and most rows of the range it reads to find them (shared among the companies). */
export const MAX_SEARCH_VALUES = 20;
export const SEARCH_VALUES_SAMPLE_ROWS = 50_000;

/** Which field's known values to suggest: a kind, one of its fields, what is typed so far, and when. */
export const searchValuesBodySchema = z
  .object({
    kind: z.enum(searchKinds, { message: `A kind is one of ${searchKinds.join(', ')}.` }),
    /** A keyword, address or yes/no field of the kind (docs/query-language.md). */
    field: z.string().min(1, 'Name a field.').max(100),
    /** The start of the value typed, whatever the case; empty for any value. */
    prefix: z.string().max(200, 'A prefix has at most 200 characters.').default(''),
    /** The time range read; by default the last 7 days. */
    from: instant.optional(),
    to: instant.optional(),
  })
  .strict()
  .refine((body) => !body.from || !body.to || Date.parse(body.from) <= Date.parse(body.to), {
    message: 'The start of the time range must not be after its end.',
    path: ['to'],
  });
export type SearchValuesBody = z.infer<typeof searchValuesBodySchema>;

/** The values a field takes most often in the newest rows read, most frequent first. */
export const searchValuesAnswerSchema = z.object({
  values: z.array(
    z.object({
      value: z.string(),
      /** How many of the rows read hold it. */
      count: z.number().int(),
    }),
  ),
});
export type SearchValuesAnswer = z.infer<typeof searchValuesAnswerSchema>;

/** Paging and order of a search's results, in the query string as lists have them. */
export const searchPageQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    page_size: z.coerce.number().int().min(1).max(500).default(50),
    ordering: z.enum(['-ts', 'ts']).default('-ts'),
  })
  .strict();

/** Most hits one export carries (newest first); narrow the search for the rest. */
export const MAX_SEARCH_EXPORT_ROWS = 10_000;

/** The file format of an export. */
export const searchExportQuerySchema = z
  .object({
    format: z.enum(['csv', 'json'], { message: 'The format is csv or json.' }).default('csv'),
  })
  .strict();

/** One thing a search found: an event of one kind, or an alert. */
export const searchHitSchema = z.object({
  kind: z.enum(searchKinds),
  id: z.number().int(),
  company_id: z.number().int(),
  /** When it happened (an alert: when it was first raised). */
  ts: z.string(),
  /** The stored event, or the alert's fields. */
  event: z.record(z.string(), z.unknown()),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchAnswerSchema = z.object({
  results: z.array(searchHitSchema),
  count: z.number().int(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
});
export type SearchAnswer = z.infer<typeof searchAnswerSchema>;

/** How many hits fell in each interval of the time range, per kind, for the histogram over the results. */
export const searchHistogramSchema = z.object({
  /** The width of each bucket in seconds. */
  interval_seconds: z.number().int(),
  buckets: z.array(
    z.object({
      /** The bucket's start (ISO 8601). */
      start: z.string(),
      count: z.number().int(),
      by_kind: z.record(z.enum(searchKinds), z.number().int()),
    }),
  ),
});
export type SearchHistogram = z.infer<typeof searchHistogramSchema>;
