import { z } from 'zod';
import { severitySchema } from './events';
import { mailAttachmentItemSchema, storedEventSchema } from './ingest';

/*
 * Investigation: event details with their raw record, a mail message as an analyst reads it, where a
 * file was seen, and the process tree of a host.
 */

const ts = z.iso.datetime({ offset: true });

/** What the policy indicators say about one value (a URL, a hash, a file name). */
export const indicatorVerdicts = ['malicious', 'allowed', 'unknown'] as const;
export const indicatorVerdictSchema = z.object({
  /** `malicious`: alert indicators match; `allowed`: an ignore indicator matches; `unknown`: none does. */
  verdict: z.enum(indicatorVerdicts),
  /** The most severe matching alert indicator's severity. */
  severity: severitySchema.nullable(),
  /** Ids of the matching indicators, most severe first. */
  indicator_ids: z.array(z.number().int()),
});
export type IndicatorVerdict = z.infer<typeof indicatorVerdictSchema>;

/** Optional event time next to an id: lets the lookup go to one partition (any value is accepted without it). */
export const eventDetailQuerySchema = z
  .object({
    ts: ts.optional(),
  })
  .strict();
export type EventDetailQuery = z.infer<typeof eventDetailQuerySchema>;

/** A network or endpoint event with the record as it arrived. */
export const eventDetailSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  ts: z.string(),
  batch_id: z.number().int(),
  event: z.record(z.string(), z.unknown()),
  raw: z.record(z.string(), z.unknown()),
});
export type EventDetail = z.infer<typeof eventDetailSchema>;

/** A mail message as the list gives it (no bodies), with the worst verdict of its sender, URLs and attachments. */
export const mailListItemSchema = storedEventSchema.extend({ verdict: indicatorVerdictSchema });
export type MailListItem = z.infer<typeof mailListItemSchema>;

/** One `method=result` of an Authentication-Results header (RFC 8601), e.g. `dkim=pass header.d=example.com`. */
export const authenticationResultSchema = z.object({
  /** spf, dkim, dmarc, arc, auth… (lower case). */
  method: z.string(),
  /** pass, fail, softfail, neutral, none, temperror, permerror… (lower case). */
  result: z.string(),
  /** The comment or `reason=` given for the result. */
  reason: z.string().nullable(),
  /** `ptype.property=value` pairs: `smtp.mailfrom`, `header.d`, `header.from`… */
  properties: z.record(z.string(), z.string()),
});
export type AuthenticationResult = z.infer<typeof authenticationResultSchema>;

export const authenticationHeaderSchema = z.object({
  /** The server that checked (the header's first token). */
  authserv_id: z.string().nullable(),
  results: z.array(authenticationResultSchema),
  /** The header as received. */
  header: z.string(),
});
export type AuthenticationHeader = z.infer<typeof authenticationHeaderSchema>;

export const mailUrlSchema = z.object({
  url: z.string(),
  host: z.string().nullable(),
  verdict: indicatorVerdictSchema,
});
export type MailUrl = z.infer<typeof mailUrlSchema>;

export const mailDetailAttachmentSchema = mailAttachmentItemSchema.extend({
  verdict: indicatorVerdictSchema,
  /** The warehouse holds the bytes (download possible). */
  stored: z.boolean(),
  /** URLs found in the attachment (HTML and SVG), also among the message's URLs. */
  urls: z.array(z.string()),
});
export type MailDetailAttachment = z.infer<typeof mailDetailAttachmentSchema>;

/** A mail message as an analyst reads it: the normalised message (bodies included) and what was found in it. */
export const mailDetailSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  ts: z.string(),
  batch_id: z.number().int(),
  /** The normalised message (MailMessage: headers, bodies, addresses), attachment bytes left out. */
  event: z.record(z.string(), z.unknown()),
  /** The message as stored, for the raw view. */
  raw: z.record(z.string(), z.unknown()),
  /**
   * The summary is derived from `headers` in the same answer: each method's result from the topmost
   * headers that share the first one's authserv-id (a passing DKIM signature wins), SPF from
   * Received-SPF when they give none.
   */
  authentication: z.object({
    spf: z.string().nullable(),
    dkim: z.string().nullable(),
    dmarc: z.string().nullable(),
    arc: z.string().nullable(),
    compauth: z.string().nullable(),
    /** Each Authentication-Results header, topmost (the receiving server's) first. */
    headers: z.array(authenticationHeaderSchema),
  }),
  /** The original message as it arrived, when kept (`GET /api/mailing/:id/raw/` serves it). */
  original: z.object({ size: z.number().int(), sha256: z.string() }).nullable(),
  urls: z.array(mailUrlSchema),
  attachments: z.array(mailDetailAttachmentSchema),
  /** The worst verdict of the sender, the URLs and the attachments. */
  verdict: indicatorVerdictSchema,
});
export type MailDetail = z.infer<typeof mailDetailSchema>;

// ---------------------------------------------------------------------------------------------
// Files: where a SHA-256 was seen
// ---------------------------------------------------------------------------------------------

export const fileCompanySightingSchema = z.object({
  company_id: z.number().int(),
  company_name: z.string(),
  filename: z.string().nullable(),
  sources: z.array(z.string()),
  sightings: z.number().int(),
  first_seen: z.string(),
  last_seen: z.string(),
});

export const fileMailSightingSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  ts: z.string(),
  subject: z.string().nullable(),
  sender: z.string().nullable(),
  filename: z.string().nullable(),
});

export const fileEndpointSightingSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  ts: z.string(),
  host_name: z.string().nullable(),
  action: z.string().nullable(),
  process_name: z.string().nullable(),
  file_path: z.string().nullable(),
  user_name: z.string().nullable(),
});

export const fileNetworkSightingSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  ts: z.string(),
  src_ip: z.string().nullable(),
  dest_ip: z.string().nullable(),
  app_proto: z.string().nullable(),
  filename: z.string().nullable(),
});

/** How many sightings of each place a detail lists at most (newest first). */
export const FILE_SIGHTINGS_LIMIT = 100;

export const fileDetailSchema = z.object({
  sha256: z.string(),
  md5: z.string().nullable(),
  sha1: z.string().nullable(),
  size: z.number().int().nullable(),
  detected_type: z.string().nullable(),
  /** The latest name it was seen under. */
  filename: z.string().nullable(),
  /** The warehouse holds the bytes (download possible). */
  stored: z.boolean(),
  first_seen: z.string(),
  last_seen: z.string(),
  sightings: z.number().int(),
  verdict: indicatorVerdictSchema,
  companies: z.array(fileCompanySightingSchema),
  mails: z.array(fileMailSightingSchema),
  endpoint_events: z.array(fileEndpointSightingSchema),
  network_events: z.array(fileNetworkSightingSchema),
});
export type FileDetail = z.infer<typeof fileDetailSchema>;

// ---------------------------------------------------------------------------------------------
// Process tree of a host
// ---------------------------------------------------------------------------------------------

/** Most processes one tree answer holds; more sets `truncated`. */
export const PROCESS_TREE_LIMIT = 5_000;

export const processTreeRequestSchema = z
  .object({
    host_name: z.string().trim().min(1, 'Name the host.').max(500, 'At most 500 characters.'),
    from: ts,
    to: ts,
    /** Only the subtrees under processes with this id. */
    root_pid: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    /** For staff who see several companies: the host's company. */
    company_id: z.number().int().min(1).optional(),
  })
  .strict()
  .refine((value) => Date.parse(value.from) <= Date.parse(value.to), {
    message: 'The start must not be after the end.',
    path: ['to'],
  });
export type ProcessTreeRequest = z.infer<typeof processTreeRequestSchema>;

export const processNodeSchema = z.object({
  /** Stable within the answer: the entity id when the source gives one, else `pid@start`. */
  key: z.string(),
  parent_key: z.string().nullable(),
  company_id: z.number().int(),
  pid: z.number().int().nullable(),
  parent_pid: z.number().int().nullable(),
  entity_id: z.string().nullable(),
  name: z.string().nullable(),
  executable: z.string().nullable(),
  command_line: z.string().nullable(),
  parent_name: z.string().nullable(),
  user: z.string().nullable(),
  /** When the process started, or when it was first seen if its start is outside the window. */
  start: z.string(),
  /** Whether a process start event was seen (otherwise only its later activity). */
  start_seen: z.boolean(),
  hashes: z.object({ md5: z.string().nullable(), sha1: z.string().nullable(), sha256: z.string().nullable() }),
  /** The event that made the process known, for the detail drawer. */
  event_id: z.number().int(),
  event_ts: z.string(),
  /** Events of this process in the window. */
  event_count: z.number().int(),
  /** Alerts raised from this process's events. */
  alert_ids: z.array(z.number().int()),
});
export type ProcessNode = z.infer<typeof processNodeSchema>;

export const processTreeSchema = z.object({
  host_name: z.string(),
  from: z.string(),
  to: z.string(),
  /** Parents before children, by start time. */
  processes: z.array(processNodeSchema),
  /** More processes than PROCESS_TREE_LIMIT, or more events than were read, in the window. */
  truncated: z.boolean(),
});
export type ProcessTree = z.infer<typeof processTreeSchema>;
