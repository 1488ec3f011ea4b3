import { z } from 'zod';
import { alertSeveritySchema } from './alerts';
import { csvImportAnswerSchema, csvImportRejectionSchema, type CsvImportRejection } from './csv-import';

const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** What an indicator's value is; `domain` also matches every subdomain of the value. */
export const indicatorTypes = ['ip', 'cidr', 'domain', 'url', 'email', 'md5', 'sha1', 'sha256', 'filename'] as const;
export const indicatorTypeSchema = z.enum(indicatorTypes, {
  message: `The type is one of ${indicatorTypes.join(', ')}.`,
});
export type IndicatorType = z.infer<typeof indicatorTypeSchema>;

/** `alert` raises alerts on a match; `ignore` suppresses alerting for the value (it wins over `alert`). */
export const indicatorPolicies = ['alert', 'ignore'] as const;
export const indicatorPolicySchema = z.enum(indicatorPolicies, { message: 'The policy is alert or ignore.' });
export type IndicatorPolicy = z.infer<typeof indicatorPolicySchema>;

/** One company's indicator, or one for all companies (owned by the provider, visible to staff who see all). */
export const indicatorScopes = ['company', 'all'] as const;
export type IndicatorScope = (typeof indicatorScopes)[number];

export const MAX_INDICATOR_VALUE = 2048;
const tag = z.string().trim().min(1, 'A tag must not be empty.').max(100, 'A tag has at most 100 characters.');

export const indicatorSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  scope: z.enum(indicatorScopes),
  type: indicatorTypeSchema,
  /** Normalised: lower-case domains, hashes and e-mail addresses; canonical IPs, CIDRs and URLs. */
  value: z.string(),
  policy: indicatorPolicySchema,
  severity: alertSeveritySchema,
  expires_at: z.string().nullable(),
  /** Whether the indicator is live (not expired). */
  active: z.boolean(),
  tags: z.array(z.string()),
  source: z.string(),
  description: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Indicator = z.infer<typeof indicatorSchema>;

const fields = {
  type: indicatorTypeSchema,
  /** Checked and normalised by type on the server (400 on `value` when it is not one). */
  value: z
    .string({ message: 'Give a value.' })
    .trim()
    .min(1, 'Give a value.')
    .max(MAX_INDICATOR_VALUE, `A value has at most ${MAX_INDICATOR_VALUE} characters.`),
  policy: indicatorPolicySchema,
  severity: alertSeveritySchema,
  expires_at: z.iso.datetime({ offset: true, message: 'Give an ISO 8601 date and time.' }).nullable(),
  tags: z.array(tag).max(50, 'At most 50 tags.'),
  source: z.string().trim().max(200, 'A source has at most 200 characters.'),
  description: z.string().trim().max(4000, 'A description has at most 4000 characters.'),
};

export const indicatorCreateSchema = z
  .object({
    ...fields,
    policy: fields.policy.optional(),
    severity: fields.severity.optional(),
    expires_at: fields.expires_at.optional(),
    tags: fields.tags.optional(),
    source: fields.source.optional(),
    description: fields.description.optional(),
    /** The company it applies to; the caller's own when absent. Ignored with `all_companies`. */
    company_id: id.optional(),
    /** For every company (staff who see all companies only). */
    all_companies: z.boolean().optional(),
  })
  .strict();
export type IndicatorCreate = z.infer<typeof indicatorCreateSchema>;

export const indicatorUpdateSchema = z
  .object({
    value: fields.value,
    policy: fields.policy,
    severity: fields.severity,
    expires_at: fields.expires_at,
    tags: fields.tags,
    source: fields.source,
    description: fields.description,
  })
  .partial()
  .strict();
export type IndicatorUpdate = z.infer<typeof indicatorUpdateSchema>;

const oneOrMany = <T extends z.ZodType>(schema: T) => z.union([schema, z.array(schema).max(100)]);

export const indicatorFiltersSchema = z
  .object({
    search: z.string().trim().max(200).optional(),
    type: oneOrMany(indicatorTypeSchema).optional(),
    policy: oneOrMany(indicatorPolicySchema).optional(),
    severity: oneOrMany(alertSeveritySchema).optional(),
    /** Indicators carrying any of these tags. */
    tags: oneOrMany(tag).optional(),
    source: oneOrMany(z.string().trim().min(1).max(200)).optional(),
    /** true: not expired; false: expired. */
    active: z.boolean().optional(),
    scope: z.enum(indicatorScopes).optional(),
    company_id: z.union([id, z.array(id).max(500)]).optional(),
  })
  .strict();
export type IndicatorFilters = z.infer<typeof indicatorFiltersSchema>;

export const indicatorBulkDeleteSchema = z
  .object({ ids: z.array(id).min(1, 'Give at least one id.').max(100_000, 'At most 100,000 ids at once.') })
  .strict();

/** Where imported rows go: the caller's company when nothing is given. */
export const indicatorImportTargetSchema = z
  .object({
    company_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
    all_companies: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).optional(),
  })
  .strict();

export const indicatorImportJsonSchema = indicatorImportTargetSchema
  .extend({ csv: z.string({ message: 'Give the CSV text.' }).min(1, 'Give the CSV text.') })
  .strict();

/** Columns of the CSV import and export, in this order. */
export const indicatorCsvColumns = [
  'type',
  'value',
  'policy',
  'severity',
  'expires_at',
  'tags',
  'source',
  'description',
] as const;

export const indicatorImportRejectionSchema = csvImportRejectionSchema;
export type IndicatorImportRejection = CsvImportRejection;

export const indicatorImportAnswerSchema = csvImportAnswerSchema;
export type IndicatorImportAnswer = z.infer<typeof indicatorImportAnswerSchema>;

/** Answer of a bulk delete: how many of the named indicators (in the caller's scope) were deleted. */
export const indicatorBulkDeleteAnswerSchema = z.object({ deleted: z.number().int().min(0) });
export type IndicatorBulkDeleteAnswer = z.infer<typeof indicatorBulkDeleteAnswerSchema>;
