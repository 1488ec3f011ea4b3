import { createHash } from 'node:crypto';
import { MAX_EVENT_STRING, type MailAddressEntry, type MailAttachment, type MailMessage } from '@vigil/contract';
import {
  simpleParser,
  type AddressObject,
  type Attachment,
  type EmailAddress,
  type ParsedMail,
  type SimpleParserOptions,
} from 'mailparser';
import { printable } from '../../../safe-text';
import { parseAuthenticationHeader, summariseAuthentication } from './authentication-results';
import { detectFileType, hasDoubleExtension } from './file-type';
import { parseMailDate } from './mail-date';
import { UrlCollector } from './urls';
import { clean } from './values';

export const DEFAULT_MAX_MAIL_BYTES = 50 * 1024 * 1024;
export const DEFAULT_MAX_ATTACHMENTS = 500;

export interface MailParseOptions {
  /** Largest raw message accepted, in bytes (default 50 MiB). Bounds the memory a parse takes. */
  maxBytes?: number;
  /** Most attachments accepted (default 500); a message with more is refused, not cut. */
  maxAttachments?: number;
  /** Most URLs kept from the bodies (default 1000). */
  maxUrls?: number;
}

/** An attachment with its bytes, for the warehouse. */
export interface ParsedAttachment extends MailAttachment {
  content: Buffer;
}

/** A parsed message: MailMessage with the attachments' bytes and the message as it arrived. */
export type ParsedMailMessage = Omit<MailMessage, 'attachments'> & {
  attachments: ParsedAttachment[];
  /** The message's own bytes, kept as the original. */
  original: Buffer;
};

export type MailParseResult = { ok: true; message: ParsedMailMessage } | { ok: false; reason: string };

const STANDARD_HEADERS = ['from', 'to', 'cc', 'subject', 'date', 'message-id', 'received', 'return-path', 'sender'];

/**
 * Parses one RFC 5322 message (.eml). Resolves with the message or with a reason; never rejects
 * and never throws.
 */
export async function parseMail(raw: Uint8Array, options: MailParseOptions = {}): Promise<MailParseResult> {
  try {
    return await parse(raw, options);
  } catch (error) {
    return {
      ok: false,
      reason: `the message could not be read (${printable(error instanceof Error ? error.message : String(error))})`,
    };
  }
}

async function parse(raw: Uint8Array, options: MailParseOptions): Promise<MailParseResult> {
  if (!(raw instanceof Uint8Array)) return { ok: false, reason: 'the message must be sent as bytes' };
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_MAIL_BYTES;
  const maxAttachments = options.maxAttachments ?? DEFAULT_MAX_ATTACHMENTS;
  const source = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  if (source.every(isSpace)) {
    return { ok: false, reason: 'the message is empty' };
  }
  if (source.length > maxBytes) {
    return {
      ok: false,
      reason: `the message is ${fmt(source.length)} bytes, over the limit of ${fmt(maxBytes)} bytes`,
    };
  }
  // mailparser refuses a message of more MIME parts than this (its default is 1,000), which also
  // bounds how deep its recursive walk of the parts goes.
  const maxChildNodes = Math.max(1000, maxAttachments * 2 + 10);
  const parserOptions: SimpleParserOptions & { maxChildNodes: number } = {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    keepCidLinks: true,
    maxChildNodes,
  };
  let mail: ParsedMail;
  try {
    mail = await simpleParser(source, parserOptions);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (message.includes('Max allowed child nodes')) {
      return { ok: false, reason: `the message has more than ${fmt(maxChildNodes)} MIME parts` };
    }
    // The parser's message may quote the message's bytes.
    return { ok: false, reason: `the message could not be read (${printable(message)})` };
  }
  const headers = mail.headers ?? new Map();
  if (!STANDARD_HEADERS.some((name) => headers.has(name))) {
    return {
      ok: false,
      reason: 'not an RFC 5322 message: it has none of the From, To, Cc, Subject, Date, Message-ID or Received headers',
    };
  }
  const attachments = mail.attachments ?? [];
  if (attachments.length > maxAttachments) {
    return {
      ok: false,
      reason: `the message has ${fmt(attachments.length)} attachments, over the limit of ${fmt(maxAttachments)}`,
    };
  }

  const lines = mail.headerLines ?? [];
  const values = (key: string) => lines.filter((h) => h.key === key).map((h) => clean(headerValue(h.line)));
  const authenticationResults = values('authentication-results');
  const verdicts = summariseAuthentication(
    authenticationResults.map(parseAuthenticationHeader),
    values('received-spf')[0] ?? null,
  );
  // URLs come from the whole bodies; what is stored of them is cut, and says so.
  const fullText = typeof mail.text === 'string' ? mail.text : null;
  const fullHtml = typeof mail.html === 'string' ? mail.html : null;
  const maxUrls = options.maxUrls ?? 1000;
  const urls = new UrlCollector({ maxUrls }).text(fullText).html(fullHtml);
  const parts = attachments.map((attachment) => toAttachment(attachment, maxUrls));
  for (const part of parts) for (const url of part.urls) urls.add(url);
  const dateHeader = values('date')[0];
  const date = dateHeader === undefined ? NaN : parseMailDate(dateHeader);
  const returnPath = values('return-path')[0]?.replace(/^<|>$/g, '').trim();
  const xMailer = headers.get('x-mailer');

  return {
    ok: true,
    message: {
      message_id: optional(mail.messageId),
      date:
        Number.isNaN(date) || date < -62_135_596_800_000 || date > 253_402_300_799_999
          ? null
          : new Date(date).toISOString(),
      from: addresses(mail.from)[0] ?? null,
      to: addresses(mail.to),
      cc: addresses(mail.cc),
      reply_to: addresses(mail.replyTo),
      subject: optional(mail.subject),
      text: fullText === null ? null : clean(fullText),
      html: fullHtml === null ? null : clean(fullHtml),
      text_truncated: fullText !== null && fullText.length > MAX_EVENT_STRING,
      html_truncated: fullHtml !== null && fullHtml.length > MAX_EVENT_STRING,
      header_lines: lines.map((h) => ({ name: clean(headerName(h.line)), value: clean(headerValue(h.line)) })),
      headers: {
        received: values('received'),
        return_path: returnPath === undefined || returnPath === '' ? null : returnPath,
        x_mailer: typeof xMailer === 'string' ? optional(xMailer) : null,
        ...verdicts,
        authentication_results: authenticationResults,
      },
      urls: urls.urls,
      attachments: parts,
      size: source.length,
      original: source,
    },
  };
}

const isSpace = (b: number): boolean => b === 32 || b === 9 || b === 10 || b === 13;
const fmt = (n: number): string => n.toLocaleString('en-US');

function optional(value: string | undefined | null): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : clean(trimmed);
}

/**
 * The value of a raw header line, unfolded. The parser hands lines over byte by byte (Latin-1);
 * they are read as UTF-8, as mailers that send 8-bit headers write them.
 */
function headerValue(line: string): string {
  const colon = line.indexOf(':');
  return utf8(
    line
      .slice(colon + 1)
      .replace(/\r?\n[ \t]+/g, ' ')
      .trim(),
  );
}

/** The name of a raw header line as the message writes it. */
function headerName(line: string): string {
  const colon = line.indexOf(':');
  return utf8((colon < 0 ? line : line.slice(0, colon)).trim());
}

function utf8(binary: string): string {
  // eslint-disable-next-line no-control-regex
  return /[^\u0000-\u007f]/.test(binary) ? Buffer.from(binary, 'latin1').toString('utf8') : binary;
}

function addresses(field: AddressObject | AddressObject[] | undefined): MailAddressEntry[] {
  if (field === undefined) return [];
  const out: MailAddressEntry[] = [];
  const visit = (entry: EmailAddress) => {
    if (entry.group !== undefined) entry.group.forEach(visit);
    else {
      const address = typeof entry.address === 'string' && entry.address.trim() !== '' ? entry.address.trim() : null;
      const name = optional(entry.name);
      // `DeBank <>`: a display name without an address is kept with its name.
      if (address !== null || name !== null) out.push({ address: address && clean(address.toLowerCase()), name });
    }
  };
  for (const object of Array.isArray(field) ? field : [field]) object.value.forEach(visit);
  return out;
}

/** Text of an HTML or SVG file: UTF-16 by its byte-order mark, else UTF-8. */
function markupText(content: Buffer): string {
  if (content[0] === 0xff && content[1] === 0xfe) return content.subarray(2).toString('utf16le');
  if (content[0] === 0xfe && content[1] === 0xff) return Buffer.from(content.subarray(2)).swap16().toString('utf16le');
  return content.toString('utf8');
}

function toAttachment(attachment: Attachment, maxUrls: number): ParsedAttachment {
  const content = Buffer.isBuffer(attachment.content) ? attachment.content : Buffer.alloc(0);
  const filename = optional(attachment.filename);
  const digest = (algorithm: string) => createHash(algorithm).update(content).digest('hex');
  const contentType = clean(attachment.contentType || 'application/octet-stream');
  const detected = detectFileType(content, filename, contentType);
  // An HTML page or SVG image opens in a browser: its links and form targets are the message's too.
  const urls =
    detected === 'html' || detected === 'svg' ? new UrlCollector({ maxUrls }).html(markupText(content)).urls : [];
  return {
    filename,
    content_type: contentType,
    size: content.length,
    md5: digest('md5'),
    sha1: digest('sha1'),
    sha256: digest('sha256'),
    detected_type: detected,
    inline: attachment.related === true || attachment.contentDisposition === 'inline',
    double_extension: hasDoubleExtension(filename),
    urls,
    content,
  };
}
