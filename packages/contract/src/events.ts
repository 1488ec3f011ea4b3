import { z } from 'zod';
import { detectedFileTypes, MAX_EVENT_STRING } from './values';

/*
 * Normalised events: what the ingest parsers make of the formats real tools emit (Suricata EVE
 * JSON, endpoint JSON lines in an ECS-like shape or Windows events exported from EVTX, RFC 5322
 * mail). Every field is present; a value the source did not carry is `null` (or an empty list),
 * and a group (`alert`, `process`, …) is `null` when the source carried none of its fields, so
 * rows map onto table columns without guessing. `raw` keeps the record as it arrived.
 *
 * Strings are as the source gave them except: IP addresses are canonical (IPv4 dotted quad;
 * IPv6 in RFC 5952 form, lower case; IPv4-mapped IPv6 becomes IPv4), hashes are lower-case hex,
 * timestamps are UTC ISO 8601 with up to microseconds (`2024-05-06T10:11:12.123456Z`), every
 * U+0000 becomes U+FFFD (PostgreSQL text and jsonb cannot hold NUL), and normalised strings are
 * cut at MAX_EVENT_STRING characters (raw keeps them whole).
 */

/** Our severity scale, shared by events, alerts and incidents. */
export const severitySchema = z.enum(['info', 'low', 'medium', 'high', 'critical']);
export type Severity = z.infer<typeof severitySchema>;

const text = z.string().max(MAX_EVENT_STRING);
const nullableText = text.nullable();
/** UTC ISO 8601 timestamp with a `Z`, up to microseconds. */
export const eventTimestampSchema = z.iso.datetime();
/** Canonical IPv4 or IPv6 address. */
export const ipAddressSchema = z.union([z.ipv4(), z.ipv6()]);
export const portSchema = z.number().int().min(0).max(65_535);
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const md5 = z.string().regex(/^[0-9a-f]{32}$/);
const sha1 = z.string().regex(/^[0-9a-f]{40}$/);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** File hashes; each `null` when not known. */
export const fileHashesSchema = z.object({
  md5: md5.nullable(),
  sha1: sha1.nullable(),
  sha256: sha256.nullable(),
});
export type FileHashes = z.infer<typeof fileHashesSchema>;

/** The original record, as parsed from its JSON line. */
const rawSchema = z.record(z.string(), z.unknown());

// ---------------------------------------------------------------------------------------------
// Network: Suricata EVE JSON
// ---------------------------------------------------------------------------------------------

/** EVE event types that get their own group of fields; any other type is kept by its name. */
export const eveEventTypes = ['alert', 'flow', 'dns', 'http', 'tls', 'fileinfo', 'anomaly'] as const;

export const eveAlertSchema = z.object({
  /** `allowed` or `blocked` (IPS mode). */
  action: nullableText,
  gid: count.nullable(),
  signature_id: count,
  rev: count.nullable(),
  signature: text,
  category: nullableText,
  /** Suricata's priority: 1 is the most severe; rules may set up to 255. */
  severity: z.number().int().min(1).max(255).nullable(),
  /** ATT&CK technique ids from the rule's `mitre_technique_id` metadata (ET rules carry it). */
  mitre_technique_ids: z.array(text),
});

export const dnsAnswerSchema = z.object({
  rrname: nullableText,
  rrtype: nullableText,
  ttl: count.nullable(),
  rdata: nullableText,
});

export const eveDnsSchema = z.object({
  /** `query`/`answer` (EVE v1, v2) or `request`/`response` (v3). */
  type: nullableText,
  rrname: nullableText,
  rrtype: nullableText,
  rcode: nullableText,
  answers: z.array(dnsAnswerSchema),
});

export const eveHttpSchema = z.object({
  hostname: nullableText,
  url: nullableText,
  http_method: nullableText,
  status: z.number().int().min(0).max(999).nullable(),
  http_user_agent: nullableText,
  http_content_type: nullableText,
  /** Response body length in bytes. */
  length: count.nullable(),
});

export const eveTlsSchema = z.object({
  sni: nullableText,
  version: nullableText,
  subject: nullableText,
  issuerdn: nullableText,
  fingerprint: nullableText,
  ja3: nullableText,
  ja3s: nullableText,
  ja4: nullableText,
});

export const eveFileinfoSchema = z.object({
  filename: nullableText,
  magic: nullableText,
  size: count.nullable(),
  md5: md5.nullable(),
  sha1: sha1.nullable(),
  sha256: sha256.nullable(),
  /** CLOSED, TRUNCATED, ERROR… */
  state: nullableText,
});

export const eveFlowSchema = z.object({
  pkts_toserver: count.nullable(),
  pkts_toclient: count.nullable(),
  bytes_toserver: count.nullable(),
  bytes_toclient: count.nullable(),
  start: eventTimestampSchema.nullable(),
  end: eventTimestampSchema.nullable(),
  state: nullableText,
  reason: nullableText,
});

export const eveAnomalySchema = z.object({
  type: nullableText,
  event: nullableText,
  layer: nullableText,
});

export const networkEventSchema = z.object({
  timestamp: eventTimestampSchema,
  /** EVE `event_type`: one of eveEventTypes or any other name Suricata uses (`stats`, `smb`…). */
  event_type: z.string().min(1).max(64),
  src_ip: ipAddressSchema.nullable(),
  src_port: portSchema.nullable(),
  dest_ip: ipAddressSchema.nullable(),
  dest_port: portSchema.nullable(),
  /** Transport as Suricata names it: TCP, UDP, ICMP, IPv6-ICMP… */
  proto: nullableText,
  app_proto: nullableText,
  /** Decimal string: EVE flow ids are 64-bit and do not fit a JavaScript number. */
  flow_id: z
    .string()
    .regex(/^\d{1,20}$/)
    .nullable(),
  community_id: nullableText,
  /** The sensor's name (EVE `host`). */
  host: nullableText,
  /** Our scale, for alerts only (see the mapping in the EVE parser). */
  severity: severitySchema.nullable(),
  alert: eveAlertSchema.nullable(),
  dns: eveDnsSchema.nullable(),
  http: eveHttpSchema.nullable(),
  tls: eveTlsSchema.nullable(),
  fileinfo: eveFileinfoSchema.nullable(),
  flow: eveFlowSchema.nullable(),
  anomaly: eveAnomalySchema.nullable(),
  /** The EVE record; a flow_id above 2^53 is kept there as its exact decimal text. */
  raw: rawSchema,
});
export type NetworkEvent = z.infer<typeof networkEventSchema>;

// ---------------------------------------------------------------------------------------------
// Endpoint: ECS-like JSON, Windows events exported from EVTX, or flat Windows JSON (NXLog, HELK)
// ---------------------------------------------------------------------------------------------

/** `ecs`: ECS-like JSON (Winlogbeat, Elastic Agent…); `evtx`: `{"Event": {"System": …}}`; `nxlog`: flat Windows JSON. */
export const endpointSourceFormats = ['ecs', 'evtx', 'nxlog'] as const;

const processRefSchema = z.object({
  pid: count.nullable(),
  name: nullableText,
  executable: nullableText,
  command_line: nullableText,
});

const accountSchema = z.object({
  name: nullableText,
  domain: nullableText,
});

export const endpointEventSchema = z.object({
  timestamp: eventTimestampSchema,
  /** Which input shape the event came in. */
  source_format: z.enum(endpointSourceFormats),
  host: z.object({
    name: nullableText,
    ip: z.array(ipAddressSchema),
    os: nullableText,
  }),
  event: z.object({
    /** What happened, one name of the vocabulary (endpointActions: `process-create`, `logon-failure`…); null when the source's event is not in it. */
    action: nullableText,
    /** The action as the shipper wrote it (`Process Create (rule: ProcessCreate)`, `start`); null when it wrote none. */
    shipper_action: nullableText,
    /** ECS categories: process, network, file, registry, authentication, iam, configuration… */
    category: z.array(text),
    /** The Windows event id, or ECS `event.code`. */
    code: nullableText,
    /** Windows provider (`Microsoft-Windows-Sysmon`) or ECS `event.provider`. */
    provider: nullableText,
    /** Windows channel (`Security`, `Microsoft-Windows-Sysmon/Operational`). */
    channel: nullableText,
    /** `success`, `failure` or `unknown`, where the source says. */
    outcome: nullableText,
  }),
  process: processRefSchema
    .extend({
      /** Sysmon ProcessGuid or ECS process.entity_id. */
      entity_id: nullableText,
      parent: processRefSchema
        .extend({
          /** Sysmon ParentProcessGuid or ECS process.parent.entity_id. */
          entity_id: nullableText,
          /** The account the parent runs as, as the source wrote it (Sysmon ParentUser). */
          user: nullableText,
        })
        .nullable(),
      hash: fileHashesSchema,
      /** The account the process runs as, as the source wrote it (`DOMAIN\name`). */
      user: nullableText,
      /** The name the executable was built with (PE OriginalFileName): tells a renamed tool. */
      original_file_name: nullableText,
      /** Windows integrity level: Untrusted, Low, Medium, MediumPlus, High, System, Protected (or the label's SID). */
      integrity_level: nullableText,
    })
    .nullable(),
  /** The process acted upon: opened (Sysmon 10, a 4656 on a process), injected into (Sysmon 8). */
  target_process: z
    .object({
      pid: count.nullable(),
      name: nullableText,
      executable: nullableText,
      entity_id: nullableText,
      /** The access mask granted to the handle, lower-case hex (`0x1010`). */
      granted_access: nullableText,
    })
    .nullable(),
  file: z
    .object({
      path: nullableText,
      name: nullableText,
      hash: fileHashesSchema,
      /** The PE OriginalFileName of the file (Sysmon 7's loaded image, ECS file.pe). */
      original_file_name: nullableText,
    })
    .nullable(),
  /** The account that acted (Sysmon User, the logon account of 4624/4625, the subject otherwise). */
  user: accountSchema
    .extend({
      /** The logon session of that account, lower-case hex (`0x3e7`); links a logon to what it did. */
      logon_id: nullableText,
    })
    .nullable(),
  /** The account acted upon: created (4720), added to a group (4732). */
  target_user: accountSchema.nullable(),
  /** The group of a membership change. */
  group: accountSchema.nullable(),
  network: z
    .object({
      src_ip: ipAddressSchema.nullable(),
      src_port: portSchema.nullable(),
      dest_ip: ipAddressSchema.nullable(),
      dest_port: portSchema.nullable(),
      /** Lower case: tcp, udp… */
      protocol: nullableText,
    })
    .nullable(),
  registry: z
    .object({
      /** The full path as the source gave it: `HKLM\SOFTWARE\…\Run\Updater`. */
      path: nullableText,
      /** HKLM, HKU, HKCR… */
      hive: nullableText,
      /** The key without its hive. */
      key: nullableText,
      /** The value name, for value operations. */
      value: nullableText,
      data: nullableText,
    })
    .nullable(),
  dns: z
    .object({
      question: nullableText,
      /** Resolved names and addresses, in the order given. */
      answers: z.array(text),
    })
    .nullable(),
  /** Windows EventData/UserData flattened to name → value; `{}` for ECS input. */
  event_data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  raw: rawSchema,
});
export type EndpointEvent = z.infer<typeof endpointEventSchema>;

// ---------------------------------------------------------------------------------------------
// Mail: one RFC 5322 message
// ---------------------------------------------------------------------------------------------

export const detectedFileTypeSchema = z.enum(detectedFileTypes);
export type DetectedFileType = z.infer<typeof detectedFileTypeSchema>;

export const mailAddressEntrySchema = z.object({
  /**
   * Lower-cased address; may be malformed as the sender wrote it. `null` when the header gave a
   * display name and no address (`From: DeBank <>`): the name is still kept.
   */
  address: nullableText,
  name: nullableText,
});
export type MailAddressEntry = z.infer<typeof mailAddressEntrySchema>;

/** A verdict of Authentication-Results (RFC 8601): pass, fail, softfail, neutral, none, temperror… */
const verdict = z.string().max(32).nullable();

export const mailAttachmentSchema = z.object({
  filename: nullableText,
  content_type: text,
  size: count,
  md5,
  sha1,
  sha256,
  detected_type: detectedFileTypeSchema,
  /** Shown inline (an image the HTML refers to by `cid:`) rather than attached. */
  inline: z.boolean(),
  /**
   * The name hides its real type behind a harmless-looking one (`Invoice.Xls.htm`, `scan.pdf.exe`):
   * a document, image, media or archive extension followed by one of a file that runs or opens in
   * a browser.
   */
  double_extension: z.boolean(),
  /** http, https and ftp URLs found in an HTML or SVG attachment (links, sources, form targets, refreshes, text). */
  urls: z.array(text),
});
export type MailAttachment = z.infer<typeof mailAttachmentSchema>;

export const mailMessageSchema = z.object({
  message_id: nullableText,
  date: eventTimestampSchema.nullable(),
  from: mailAddressEntrySchema.nullable(),
  to: z.array(mailAddressEntrySchema),
  cc: z.array(mailAddressEntrySchema),
  reply_to: z.array(mailAddressEntrySchema),
  subject: nullableText,
  /** The plain-text body, cut at MAX_EVENT_STRING characters (`text_truncated` says so). */
  text: z.string().nullable(),
  /** The HTML body, cut at MAX_EVENT_STRING characters (`html_truncated` says so). */
  html: z.string().nullable(),
  /** The text body was longer than what is kept; URLs were still taken from all of it. */
  text_truncated: z.boolean(),
  /** The HTML body was longer than what is kept; URLs were still taken from all of it. */
  html_truncated: z.boolean(),
  /** Every header of the message, in order, unfolded (values as they arrived, encoded words left as they are). */
  header_lines: z.array(z.object({ name: text, value: text })),
  headers: z.object({
    /** Received headers, newest (top) first, unfolded. */
    received: z.array(text),
    return_path: nullableText,
    x_mailer: nullableText,
    /**
     * Each method's result as the receiving server gave it: from the topmost Authentication-Results
     * headers that share the first one's authserv-id (several when the server writes one header per
     * method), a passing DKIM signature winning over others; SPF from Received-SPF when they give none.
     */
    spf: verdict,
    dkim: verdict,
    dmarc: verdict,
    arc: verdict,
    /** Microsoft 365's composite authentication. */
    compauth: verdict,
    /** Every Authentication-Results header, topmost first. */
    authentication_results: z.array(text),
  }),
  /**
   * http, https and ftp URLs from the whole text and HTML bodies (not only what is kept of them), then
   * from HTML and SVG attachments; normalised, first sighting first.
   */
  urls: z.array(text),
  attachments: z.array(mailAttachmentSchema),
  /** Size of the raw message in bytes. */
  size: count,
});
export type MailMessage = z.infer<typeof mailMessageSchema>;
