import { z } from 'zod';
import { endpointSourceFormats } from './events';

/*
 * Ingest API (`/api/ingest/…`) and the stored-event resources it feeds: network, eclipse_events,
 * mailing, attaches, warehouse and warehouse/hashes.
 */

// ---------------------------------------------------------------------------------------------
// Ingest tokens: keys bound to one company, sent as `Authorization: Bearer <key>`
// ---------------------------------------------------------------------------------------------

export const ingestTokenCreateSchema = z
  .object({
    name: z.string().trim().min(1, 'Give the token a name.').max(200, 'At most 200 characters.'),
    /** The company whose events the key sends; the caller's own company when absent. */
    company_id: z.number().int().min(1).optional(),
  })
  .strict();
export type IngestTokenCreate = z.infer<typeof ingestTokenCreateSchema>;

export const ingestTokenSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  name: z.string(),
  /** The first characters of the key, to tell keys apart. */
  key_prefix: z.string(),
  created_by: z.number().int().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type IngestToken = z.infer<typeof ingestTokenSchema>;

/** The answer to creating a token: the only time the key is shown. */
export const ingestTokenCreatedSchema = ingestTokenSchema.extend({ key: z.string() });
export type IngestTokenCreated = z.infer<typeof ingestTokenCreatedSchema>;

export const ingestTokenFiltersSchema = z
  .object({
    search: z.string().trim().max(200).optional(),
    company_id: z.union([z.number().int(), z.array(z.number().int()).max(500)]).optional(),
    revoked: z.boolean().optional(),
  })
  .strict();
export type IngestTokenFilters = z.infer<typeof ingestTokenFiltersSchema>;

// ---------------------------------------------------------------------------------------------
// Ingest answer
// ---------------------------------------------------------------------------------------------

export const ingestRejectionSchema = z.object({
  /** Line number counted from 1 (blank lines included); 0 for a mail refused as a whole. */
  line: z.number().int().min(0),
  reason: z.string(),
});

/** Answer of every ingest call; sent only once the batch is committed. */
export const ingestAnswerSchema = z.object({
  accepted: z.number().int().min(0),
  rejected: z.array(ingestRejectionSchema),
  batch_id: z.number().int(),
});
export type IngestAnswer = z.infer<typeof ingestAnswerSchema>;

/**
 * Query of the mail endpoint. `received_at`: when the message reached the company's mail server,
 * for a relay or journal that hands mail over later than it arrived (a backlog, an archive, the
 * demo); by default the message arrives when it is sent here. It may not lie ahead of the server's
 * clock by more than a few minutes.
 */
export const mailIngestQuerySchema = z.object({
  received_at: z.iso
    .datetime({ offset: true, message: 'Use an ISO 8601 date and time with a zone, e.g. 2026-11-22T10:00:00Z.' })
    .optional(),
});
export type MailIngestQuery = z.infer<typeof mailIngestQuerySchema>;

/** How far ahead of the server's clock a mail's `received_at` may be (clocks differ a little). */
export const MAIL_RECEIVED_AT_SKEW_MS = 5 * 60_000;

// ---------------------------------------------------------------------------------------------
// Stored-event list filters
// ---------------------------------------------------------------------------------------------

const many = <T extends z.ZodType>(item: T, max = 100) => z.union([item, z.array(item).max(max)]);
const short = z.string().trim().max(500);
const ts = z.iso.datetime({ offset: true });
/** An address or a CIDR block (`10.0.0.0/8`), IPv4 or IPv6. */
const ipOrCidr = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], {
  message: 'Enter an IP address or a CIDR block such as 10.0.0.0/8.',
});
const port = z.number().int().min(0).max(65_535);
const hash = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64})$/, 'Enter an MD5, SHA-1 or SHA-256 in hex.');
const id = z.number().int().min(1);
/** A Windows hex value (`0x1F3FFF`, access masks and logon ids), compared in lower case. */
const hexText = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^0x[0-9a-f]{1,16}$/, 'Enter a hexadecimal value such as 0x1010.');

const timeRange = {
  ts_from: ts.optional(),
  ts_to: ts.optional(),
  company_id: many(id, 500).optional(),
  batch_id: many(id, 500).optional(),
};

export const networkEventFiltersSchema = z
  .object({
    ...timeRange,
    search: z.string().trim().max(200).optional(),
    event_type: many(short).optional(),
    src_ip: many(ipOrCidr).optional(),
    dest_ip: many(ipOrCidr).optional(),
    /** Either end of the flow. */
    ip: many(ipOrCidr).optional(),
    src_port: many(port).optional(),
    dest_port: many(port).optional(),
    proto: many(short).optional(),
    app_proto: many(short).optional(),
    signature_id: many(z.number().int().min(0)).optional(),
    severity: many(z.enum(['info', 'low', 'medium', 'high', 'critical'])).optional(),
    sensor: many(short).optional(),
    community_id: short.optional(),
    dns_rrname: short.optional(),
    http_hostname: short.optional(),
    tls_sni: short.optional(),
    file_sha256: hash.optional(),
  })
  .strict();
export type NetworkEventFilters = z.infer<typeof networkEventFiltersSchema>;

export const endpointEventFiltersSchema = z
  .object({
    ...timeRange,
    search: z.string().trim().max(200).optional(),
    source_format: many(z.enum(endpointSourceFormats)).optional(),
    host_name: many(short).optional(),
    action: many(short).optional(),
    event_code: many(short).optional(),
    outcome: many(short).optional(),
    process_name: many(short).optional(),
    parent_name: many(short).optional(),
    user_name: many(short).optional(),
    hash: hash.optional(),
    src_ip: many(ipOrCidr).optional(),
    dest_ip: many(ipOrCidr).optional(),
    dest_port: many(port).optional(),
    registry_path: short.optional(),
    dns_question: short.optional(),
    /** The process acted upon (Sysmon 8 and 10), by name, either case. */
    target_process_name: many(short).optional(),
    /** Access granted to a process handle, in hex (`0x1010`). */
    granted_access: many(hexText).optional(),
    /** PE OriginalFileName of the process or of the loaded file, either case. */
    original_file_name: many(short).optional(),
    integrity_level: many(short).optional(),
    /** Logon session id, in hex (`0x3e7`). */
    logon_id: many(hexText).optional(),
  })
  .strict();
export type EndpointEventFilters = z.infer<typeof endpointEventFiltersSchema>;

export const mailMessageFiltersSchema = z
  .object({
    ...timeRange,
    /** Subject, sender or recipient contains. */
    search: z.string().trim().max(200).optional(),
    sender: short.optional(),
    recipient: short.optional(),
    subject: short.optional(),
    spf: many(short).optional(),
    dkim: many(short).optional(),
    dmarc: many(short).optional(),
    has_attachments: z.boolean().optional(),
    url: short.optional(),
  })
  .strict();
export type MailMessageFilters = z.infer<typeof mailMessageFiltersSchema>;

export const mailAttachmentFiltersSchema = z
  .object({
    ...timeRange,
    search: z.string().trim().max(200).optional(),
    mail_id: many(id, 500).optional(),
    hash: hash.optional(),
    detected_type: many(short).optional(),
    filename: short.optional(),
  })
  .strict();
export type MailAttachmentFilters = z.infer<typeof mailAttachmentFiltersSchema>;

export const warehouseFileFiltersSchema = z
  .object({
    company_id: many(id, 500).optional(),
    search: z.string().trim().max(200).optional(),
    hash: hash.optional(),
    detected_type: many(short).optional(),
    size_min: z.number().int().min(0).optional(),
    size_max: z.number().int().min(0).optional(),
    last_seen_from: ts.optional(),
    last_seen_to: ts.optional(),
  })
  .strict();
export type WarehouseFileFilters = z.infer<typeof warehouseFileFiltersSchema>;

export const warehouseHashFiltersSchema = z
  .object({
    company_id: many(id, 500).optional(),
    search: z.string().trim().max(200).optional(),
    hash: hash.optional(),
    source: many(z.enum(['mail', 'network', 'endpoint'])).optional(),
    /** What the bytes are (only files whose bytes the warehouse holds have one). */
    detected_type: many(short).optional(),
    /** `malicious`: a live alert indicator names the hash; `unknown`: none does. */
    verdict: z.enum(['malicious', 'unknown']).optional(),
    last_seen_from: ts.optional(),
    last_seen_to: ts.optional(),
  })
  .strict();
export type WarehouseHashFilters = z.infer<typeof warehouseHashFiltersSchema>;

// ---------------------------------------------------------------------------------------------
// Stored-event items: the normalised event (events.ts) with where and when it was stored
// ---------------------------------------------------------------------------------------------

const stored = {
  id: z.number().int(),
  company_id: z.number().int(),
  ts: z.string(),
  batch_id: z.number().int(),
};

/** A stored network event: `event` is the NetworkEvent without `raw`; `raw` on the detail only. */
export const storedEventSchema = z.object({
  ...stored,
  event: z.record(z.string(), z.unknown()),
  raw: z.record(z.string(), z.unknown()).optional(),
});
export type StoredEventItem = z.infer<typeof storedEventSchema>;

export const mailAttachmentItemSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  ts: z.string(),
  mail_id: z.number().int(),
  filename: z.string().nullable(),
  content_type: z.string(),
  size: z.number().int(),
  md5: z.string(),
  sha1: z.string(),
  sha256: z.string(),
  detected_type: z.string(),
  inline: z.boolean(),
  /** The name hides its real type behind a harmless-looking one (`Invoice.Xls.htm`, `scan.pdf.exe`). */
  double_extension: z.boolean(),
});
export type MailAttachmentItem = z.infer<typeof mailAttachmentItemSchema>;

export const warehouseFileSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  sha256: z.string(),
  md5: z.string(),
  sha1: z.string(),
  size: z.number().int(),
  detected_type: z.string(),
  filename: z.string().nullable(),
  sightings: z.number().int(),
  first_seen: z.string(),
  last_seen: z.string(),
});
export type WarehouseFile = z.infer<typeof warehouseFileSchema>;

export const warehouseHashSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  sha256: z.string(),
  md5: z.string().nullable(),
  sha1: z.string().nullable(),
  filename: z.string().nullable(),
  sources: z.array(z.string()),
  sightings: z.number().int(),
  last_event_kind: z.string().nullable(),
  last_event_id: z.number().int().nullable(),
  /** Whether the warehouse holds the file's bytes (for download). */
  stored: z.boolean(),
  /** Size and type of the stored bytes; null when only the hash was seen. */
  size: z.number().int().nullable(),
  detected_type: z.string().nullable(),
  /** Whether a live policy indicator of the company names the hash (SHA-256, MD5 or SHA-1). */
  verdict: z.enum(['malicious', 'allowed', 'unknown']),
  first_seen: z.string(),
  last_seen: z.string(),
});
export type WarehouseHash = z.infer<typeof warehouseHashSchema>;

/** Path parameter of a file named by its SHA-256 (64 hexadecimal digits, either case). */
export const sha256ParamSchema = z.string().regex(/^[0-9a-fA-F]{64}$/);
