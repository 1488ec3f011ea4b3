import { createHash } from 'node:crypto';
import type { MailAddressEntry, MailAttachment, MailMessage } from '@vigil/contract';
import {
  simpleParser,
  type AddressObject,
  type Attachment,
  type EmailAddress,
  type ParsedMail,
  type SimpleParserOptions,
} from 'mailparser';
import { printable } from '../../../safe-text';
import { detectFileType } from './file-type';
import { extractUrls } from './urls';
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

/** A parsed message: MailMessage with the attachments' bytes. */
export type ParsedMailMessage = Omit<MailMessage, 'attachments'> & { attachments: ParsedAttachment[] };

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
  const verdicts = parseAuthenticationResults(authenticationResults[0] ?? null);
  const receivedSpf = values('received-spf')[0];
  const text = typeof mail.text === 'string' ? clean(mail.text) : null;
  const html = typeof mail.html === 'string' ? clean(mail.html) : null;
  const dateHeader = values('date')[0];
  const date = dateHeader === undefined ? NaN : Date.parse(dateHeader);
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
      text,
      html,
      headers: {
        received: values('received'),
        return_path: returnPath === undefined || returnPath === '' ? null : returnPath,
        x_mailer: typeof xMailer === 'string' ? optional(xMailer) : null,
        spf: verdicts.spf ?? (receivedSpf === undefined ? null : firstWord(receivedSpf)),
        dkim: verdicts.dkim ?? null,
        dmarc: verdicts.dmarc ?? null,
        authentication_results: authenticationResults,
      },
      urls: extractUrls([text, html], { maxUrls: options.maxUrls ?? 1000 }),
      attachments: attachments.map(toAttachment),
      size: source.length,
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

/** The value of a raw header line, unfolded. */
function headerValue(line: string): string {
  const colon = line.indexOf(':');
  return line
    .slice(colon + 1)
    .replace(/\r?\n[ \t]+/g, ' ')
    .trim();
}

function firstWord(value: string): string | null {
  const word = /^[a-z]+/i.exec(value.trim());
  return word === null ? null : word[0].toLowerCase();
}

function addresses(field: AddressObject | AddressObject[] | undefined): MailAddressEntry[] {
  if (field === undefined) return [];
  const out: MailAddressEntry[] = [];
  const visit = (entry: EmailAddress) => {
    if (entry.group !== undefined) entry.group.forEach(visit);
    else if (typeof entry.address === 'string' && entry.address !== '') {
      out.push({ address: clean(entry.address.toLowerCase()), name: optional(entry.name) });
    }
  };
  for (const object of Array.isArray(field) ? field : [field]) object.value.forEach(visit);
  return out;
}

/**
 * The spf, dkim and dmarc results of an Authentication-Results value (RFC 8601):
 * `mx.example.net; spf=pass smtp.mailfrom=…; dkim=fail (bad signature) header.d=…; dmarc=pass`.
 * Comments are dropped; with several DKIM signatures one that passed wins, else the first.
 */
export function parseAuthenticationResults(value: string | null): { spf?: string; dkim?: string; dmarc?: string } {
  if (value === null) return {};
  let text = value;
  for (let previous = ''; previous !== text;) {
    previous = text;
    text = text.replace(/\([^()]*\)/g, ' ');
  }
  const out: { spf?: string; dkim?: string; dmarc?: string } = {};
  for (const part of text.split(';').slice(1)) {
    const m = /^\s*(spf|dkim|dmarc)\s*=\s*([a-z]+)/i.exec(part);
    if (m === null) continue;
    const method = (m[1] as string).toLowerCase() as 'spf' | 'dkim' | 'dmarc';
    const result = (m[2] as string).toLowerCase().slice(0, 32);
    if (out[method] === undefined || (method === 'dkim' && result === 'pass')) out[method] = result;
  }
  return out;
}

function toAttachment(attachment: Attachment): ParsedAttachment {
  const content = Buffer.isBuffer(attachment.content) ? attachment.content : Buffer.alloc(0);
  const filename = optional(attachment.filename);
  const digest = (algorithm: string) => createHash(algorithm).update(content).digest('hex');
  return {
    filename,
    content_type: clean(attachment.contentType || 'application/octet-stream'),
    size: content.length,
    md5: digest('md5'),
    sha1: digest('sha1'),
    sha256: digest('sha256'),
    detected_type: detectFileType(content, filename),
    inline: attachment.related === true || attachment.contentDisposition === 'inline',
    content,
  };
}
