import { z } from 'zod';
import { alertSeveritySchema } from './alerts';
import { MAX_RULE_FILE_BYTES, MAX_RULE_TEST_EVENT_BYTES, MAX_RULE_TEST_FILE_BYTES } from './values';

const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** The three kinds of detection rules the rule store holds (docs/detection-rules.md). */
export const ruleKinds = ['suricata', 'sigma', 'yara'] as const;
export type RuleKind = (typeof ruleKinds)[number];

/** One company's rule, or one for every company (owned by the provider, read-only to customers). */
export const ruleScopes = ['company', 'all'] as const;
export type RuleScope = (typeof ruleScopes)[number];

export const ruleSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  kind: z.enum(ruleKinds),
  scope: z.enum(ruleScopes),
  /** Names the rule across revisions: Sigma `id`, Suricata `gid:sid`, YARA `<file>:<rule>`. */
  rule_key: z.string(),
  /** How many revisions the store holds (1, 2, …). */
  revision: z.number().int(),
  title: z.string(),
  description: z.string(),
  level: alertSeveritySchema,
  tags: z.array(z.string()),
  /** ATT&CK ids: techniques (T1059.001) and tactics (TA0002). */
  techniques: z.array(z.string()),
  author: z.string(),
  licence: z.string(),
  file_name: z.string(),
  /** The rule's own switch. */
  enabled: z.boolean(),
  /** Whether it runs for the caller's company: on, supported, and not turned off for that company. */
  effective_enabled: z.boolean(),
  /** Why the engine cannot run it (then it stays disabled); null when it can. */
  unsupported: z.string().nullable(),
  /** Alerts it raised in the caller's scope over the last 30 days. */
  hits_30d: z.number().int(),
  /** When it last raised an alert in the caller's scope (null: never). */
  last_hit_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Rule = z.infer<typeof ruleSchema>;

export const ruleRevisionSchema = z.object({
  revision: z.number().int(),
  changed_at: z.string(),
  changed_by: z.string().nullable(),
});

export const ruleDetailSchema = ruleSchema.extend({
  references: z.array(z.string()),
  /** Kind-specific parsed fields (Suricata sid, gid, rev, classtype, metadata; Sigma status, logsource; YARA meta). */
  details: z.record(z.string(), z.unknown()),
  source: z.string(),
  source_sha256: z.string(),
  /** Companies in the caller's scope that turned this rule (for all companies) off. */
  disabled_for: z.array(z.number().int()),
  /** Hits in the caller's scope over the last 30 days, per day (days without hits left out). */
  hits: z.object({
    total: z.number().int(),
    days: z.array(z.object({ day: z.string(), hits: z.number().int() })),
    last_hit_at: z.string().nullable(),
  }),
  revisions: z.array(ruleRevisionSchema),
});
export type RuleDetail = z.infer<typeof ruleDetailSchema>;

const oneOrMany = <T extends z.ZodType>(schema: T) => z.union([schema, z.array(schema).max(100)]);
const shortText = z.string().trim().min(1).max(200);

export const ruleFiltersSchema = z
  .object({
    /** Words found in the title, description, key, file name or source. */
    search: z.string().trim().max(200).optional(),
    /** Whether the rule runs for the caller's company (effective state). */
    enabled: z.boolean().optional(),
    /** Rules the engine cannot run (true) or can (false). */
    unsupported: z.boolean().optional(),
    /** ATT&CK ids, e.g. T1059 (also matches its sub-techniques) or TA0002. */
    technique: oneOrMany(
      z
        .string()
        .trim()
        .regex(/^(T\d{4}(\.\d{3})?|TA\d{4})$/i, 'Give an ATT&CK id: T1059, T1059.001 or TA0002.'),
    ).optional(),
    level: oneOrMany(alertSeveritySchema).optional(),
    /** Rules carrying any of these tags. */
    tag: oneOrMany(shortText).optional(),
    author: oneOrMany(shortText).optional(),
    file_name: oneOrMany(shortText).optional(),
    scope: z.enum(ruleScopes).optional(),
    company_id: z.union([id, z.array(id).max(500)]).optional(),
  })
  .strict();
export type RuleFilters = z.infer<typeof ruleFiltersSchema>;

export const ruleBulkSchema = z
  .object({
    enabled: z.boolean({ message: 'Say whether the rules are turned on (true) or off (false).' }),
    /** The rules to change; or `filters` for every rule the list filters give. */
    ids: z.array(id).min(1, 'Give at least one id.').max(100_000, 'At most 100,000 ids at once.').optional(),
    filters: ruleFiltersSchema.optional(),
    /** Turn rules for all companies on or off for this one company only. */
    company_id: id.optional(),
  })
  .strict()
  .refine((b) => (b.ids === undefined) !== (b.filters === undefined), {
    message: 'Give either ids or filters.',
    path: ['ids'],
  });
export type RuleBulk = z.infer<typeof ruleBulkSchema>;

export const ruleBulkAnswerSchema = z.object({
  /** Rules whose own switch changed. */
  changed: z.number().int().min(0),
  /** Rules for all companies turned on or off for one company. */
  company_settings: z.number().int().min(0),
  /** Rules left as they were: unsupported ones cannot be turned on. */
  skipped_unsupported: z.number().int().min(0),
});
export type RuleBulkAnswer = z.infer<typeof ruleBulkAnswerSchema>;

export const ruleDiffQuerySchema = z
  .object({
    /** The older revision; the one before `to` when absent. */
    from: z.coerce.number().int().min(1).max(1_000_000).optional(),
    /** The newer revision; the latest when absent. */
    to: z.coerce.number().int().min(1).max(1_000_000).optional(),
  })
  .strict();

export const ruleDiffSchema = z.object({
  from: z.number().int(),
  to: z.number().int(),
  /** A unified diff of the two sources (three lines of context). */
  diff: z.string(),
});
export type RuleDiff = z.infer<typeof ruleDiffSchema>;

const fileName = z
  .string({ message: 'Give the file name.' })
  .trim()
  .min(1, 'Give the file name.')
  .max(255, 'A file name has at most 255 characters.');

export const ruleImportSchema = z
  .object({
    files: z
      .array(z.object({ name: fileName, content: z.string({ message: 'Give the file content as text.' }) }).strict(), {
        message: 'Give the files as a list of {name, content}.',
      })
      .min(1, 'Give at least one file.')
      .max(10_000, 'At most 10,000 files at once.'),
    /** The company the rules are for; staff without it import rules for all companies. */
    company_id: id.optional(),
    /** The licence of rules that name none (`DRL-1.1` for the SigmaHQ rules): shown with their author. */
    licence: z.string().trim().max(100, 'A licence has at most 100 characters.').optional(),
  })
  .strict();
export type RuleImport = z.infer<typeof ruleImportSchema>;

export const ruleImportRejectionSchema = z.object({
  file: z.string(),
  /** 1-based line the rule (or the error) is on. */
  line: z.number().int(),
  /** The rule's key or name, when it could be read; empty otherwise. */
  rule: z.string(),
  reason: z.string(),
});
export type RuleImportRejection = z.infer<typeof ruleImportRejectionSchema>;

export const ruleImportAnswerSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  /** Of those created or updated: stored disabled because the engine cannot run them. */
  unsupported: z.number().int(),
  rejected: z.array(ruleImportRejectionSchema),
});
export type RuleImportAnswer = z.infer<typeof ruleImportAnswerSchema>;

/** A Suricata threshold.config entry (suppress, threshold, event_filter, rate_filter) of one company. */
export const suricataThresholdSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  entry: z.string(),
  comment: z.string(),
  created_at: z.string(),
});
export type SuricataThreshold = z.infer<typeof suricataThresholdSchema>;

const entry = z
  .string({ message: 'Give a threshold.config entry.' })
  .trim()
  .min(1, 'Give a threshold.config entry.')
  .max(4000, 'An entry has at most 4000 characters.');
const comment = z.string().trim().max(1000, 'A comment has at most 1000 characters.');

export const suricataThresholdCreateSchema = z
  .object({ entry, comment: comment.optional(), company_id: id.optional() })
  .strict();
export const suricataThresholdUpdateSchema = z.object({ entry, comment }).partial().strict();
export const suricataThresholdFiltersSchema = z
  .object({
    search: z.string().trim().max(200).optional(),
    company_id: z.union([id, z.array(id).max(500)]).optional(),
  })
  .strict();
export type SuricataThresholdFilters = z.infer<typeof suricataThresholdFiltersSchema>;

/** What a sensor fetches: its company's enabled Suricata rules and threshold.config. */
export const suricataExportSchema = z.object({
  /** The rules file: one enabled rule a line, ordered by gid and sid. */
  rules: z.string(),
  /** The threshold.config of the company. */
  threshold_config: z.string(),
  rule_count: z.number().int(),
  threshold_count: z.number().int(),
  /** Same as the ETag header (without quotes): the SHA-256 of both texts. */
  version: z.string(),
});
export type SuricataExport = z.infer<typeof suricataExportSchema>;

/**
 * `POST /api/rules/<kind>/test/`: a rule's source (pasted, or a stored rule's) tried on a sample —
 * an endpoint event for Sigma, an EVE alert record for Suricata, a file for YARA. Nothing is stored.
 */
export const ruleTestSchema = z
  .object({
    /** The rule text to try; a file may hold several rules. */
    source: z
      .string({ message: 'Give the rule text.' })
      .min(1, 'Give the rule text.')
      .max(MAX_RULE_FILE_BYTES, 'A rule text has at most 5 MB.'),
    /** Sigma: one endpoint event (EVTX-JSON, ECS or flat Windows JSON). Suricata: one EVE JSON line. */
    event: z.string().max(MAX_RULE_TEST_EVENT_BYTES, 'An event has at most 1 MB.').optional(),
    /** YARA: the file to scan, base64-encoded. */
    file: z
      .object({
        name: fileName,
        content_base64: z
          .string({ message: 'Give the file content in base64.' })
          .max(Math.ceil(MAX_RULE_TEST_FILE_BYTES / 3) * 4 + 4, 'A file to test has at most 10 MB.')
          .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Give the file content in base64.'),
      })
      .strict()
      .optional(),
  })
  .strict();
export type RuleTest = z.infer<typeof ruleTestSchema>;

export const ruleTestMatchSchema = z.object({
  /** The rule's key (Sigma id, gid:sid, YARA rule name). */
  rule: z.string(),
  title: z.string(),
  /** What matched, one line each: selections, fields and values; YARA strings with their offsets. */
  details: z.array(z.string()),
});

/** One fact of a rule test: the console turns each kind into a sentence of the reader's language. */
export const ruleTestNoteSchema = z.discriminatedUnion('kind', [
  /** Sigma: how the event was read (its format, action, channel and event id). */
  z.object({
    kind: z.literal('event_read'),
    format: z.string(),
    action: z.string().nullable(),
    channel: z.string().nullable(),
    code: z.string().nullable(),
  }),
  /** Sigma: the log sources the event falls under (none: not a Windows event). */
  z.object({ kind: z.literal('log_sources'), sources: z.array(z.string()) }),
  /** Sigma: a rule whose log source does not take the event. */
  z.object({ kind: z.literal('log_source_excludes'), rule: z.string(), title: z.string(), source: z.string() }),
  /** Sigma: a rule whose log source takes the event, but whose detection does not match it. */
  z.object({ kind: z.literal('detection_no_match'), rule: z.string(), title: z.string() }),
  /** Suricata: the EVE alert compared. */
  z.object({
    kind: z.literal('eve_alert'),
    gid: z.number().int(),
    sid: z.number().int(),
    rev: z.number().int().nullable(),
    signature: z.string(),
  }),
  /** Suricata: no rule of the text has the alert's gid and sid. */
  z.object({ kind: z.literal('no_rule_for_alert') }),
  /** Suricata: no EVE record was given; the text was only parsed. */
  z.object({ kind: z.literal('parsed_only') }),
  /** Suricata: the sensor ran another revision of the rule. */
  z.object({ kind: z.literal('other_revision'), rule: z.string(), sensor: z.number().int(), text: z.number().int() }),
  /** Suricata: the sensor's message for the rule differs from the text's. */
  z.object({ kind: z.literal('other_message'), rule: z.string(), sensor: z.string() }),
  /** YARA: the file scanned. */
  z.object({ kind: z.literal('file_scanned'), name: z.string(), bytes: z.number().int() }),
]);
export type RuleTestNote = z.infer<typeof ruleTestNoteSchema>;

export const ruleTestAnswerSchema = z.object({
  /** The rules read from the text (key and title), whether or not they matched. */
  rules: z.array(z.object({ rule: z.string(), title: z.string(), unsupported: z.string().nullable() })),
  /** Why the text cannot be read or run, with its line where known; empty when it can. */
  problems: z.array(z.object({ line: z.number().int(), rule: z.string(), reason: z.string() })),
  /** Whether any rule matched the sample. */
  matched: z.boolean(),
  matches: z.array(ruleTestMatchSchema),
  /** How the sample was read, and why a rule did not match it: facts the console words in its language. */
  notes: z.array(ruleTestNoteSchema),
});
export type RuleTestAnswer = z.infer<typeof ruleTestAnswerSchema>;
export type RuleTestMatch = z.infer<typeof ruleTestMatchSchema>;
