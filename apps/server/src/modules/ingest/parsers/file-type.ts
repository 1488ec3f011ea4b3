import type { DetectedFileType } from '@vigil/contract';

/** Extensions of files that run as scripts on a Windows, macOS or Linux desktop. */
const SCRIPT_EXTENSIONS = new Set([
  'js',
  'jse',
  'mjs',
  'vbs',
  'vbe',
  'vb',
  'wsf',
  'wsh',
  'wsc',
  'sct',
  'hta',
  'ps1',
  'psm1',
  'psd1',
  'bat',
  'cmd',
  'sh',
  'bash',
  'zsh',
  'py',
  'pl',
  'rb',
  'php',
  'applescript',
]);

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

const SIGNATURES: readonly (readonly [DetectedFileType, readonly number[], number?])[] = [
  ['elf', [0x7f, 0x45, 0x4c, 0x46]],
  ['mach-o', [0xfe, 0xed, 0xfa, 0xce]],
  ['mach-o', [0xfe, 0xed, 0xfa, 0xcf]],
  ['mach-o', [0xce, 0xfa, 0xed, 0xfe]],
  ['mach-o', [0xcf, 0xfa, 0xed, 0xfe]],
  ['ole2', [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]],
  ['rtf', ascii('{\\rtf')],
  ['rar', [...ascii('Rar!'), 0x1a, 0x07]],
  ['7z', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  ['gzip', [0x1f, 0x8b]],
  ['lnk', [0x4c, 0x00, 0x00, 0x00, 0x01, 0x14, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc0]],
  ['png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['jpeg', [0xff, 0xd8, 0xff]],
  ['gif', ascii('GIF87a')],
  ['gif', ascii('GIF89a')],
  // ISO 9660: the primary volume descriptor's identifier after 16 empty sectors.
  ['iso', ascii('CD001'), 0x8001],
  ['iso', ascii('CD001'), 0x8801],
  ['iso', ascii('CD001'), 0x9001],
];

/** A Windows PE: `MZ`, and `PE\0\0` where the DOS header's e_lfanew points. */
function isPe(bytes: Uint8Array): boolean {
  if (bytes.length < 0x40 || bytes[0] !== 0x4d || bytes[1] !== 0x5a) return false;
  const offset =
    (bytes[0x3c] ?? 0) | ((bytes[0x3d] ?? 0) << 8) | ((bytes[0x3e] ?? 0) << 16) | ((bytes[0x3f] ?? 0) << 24);
  return offset >= 0x40 && startsWith(bytes, [0x50, 0x45, 0x00, 0x00], offset);
}

function isZip(bytes: Uint8Array): boolean {
  return (
    startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) ||
    startsWith(bytes, [0x50, 0x4b, 0x05, 0x06]) ||
    startsWith(bytes, [0x50, 0x4b, 0x07, 0x08])
  );
}

/** Office Open XML (docx, xlsx, pptx…): a ZIP holding `[Content_Types].xml`. */
function isOoxml(buffer: Buffer): boolean {
  return buffer.includes('[Content_Types].xml', 0, 'latin1');
}

/** `%PDF-` in the first KiB, where readers look for it. */
function isPdf(buffer: Buffer): boolean {
  const at = buffer.subarray(0, 1024).indexOf('%PDF-', 0, 'latin1');
  return at >= 0;
}

function extension(filename: string | null | undefined): string | null {
  if (filename === null || filename === undefined) return null;
  const dot = filename.lastIndexOf('.');
  return dot < 0
    ? null
    : filename
        .slice(dot + 1)
        .trim()
        .toLowerCase();
}

const HTML_EXTENSIONS = new Set(['html', 'htm', 'shtml', 'shtm', 'xhtml', 'xht', 'mht', 'mhtml', 'phtml']);
const SVG_EXTENSIONS = new Set(['svg', 'svgz']);
const HTML_MEDIA_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** Tags a browser sniffs a page by when they open the file (after white space), as the WHATWG sniffing rules list them. */
const HTML_OPENINGS =
  /^(?:<!doctype\s+html|<html|<head|<script|<iframe|<h1|<div|<font|<table|<a|<style|<title|<b|<body|<br|<p|<!--|<form|<meta|<svg)[\s>/]/i;
/** Tags that make a file a page wherever they stand in its first KiB (phishing pages often start with junk). */
const HTML_INSIDE = /<(?:html|body|script|form|iframe)[\s>]|<meta\s+http-equiv/i;

/** The first KiB as text, for sniffing: UTF-16 (by its byte-order mark) or bytes read as Latin-1. */
function leadingText(buffer: Buffer): string {
  const head = buffer.subarray(0, 1024);
  if (startsWith(head, [0xff, 0xfe])) return head.subarray(2).toString('utf16le');
  if (startsWith(head, [0xfe, 0xff])) return Buffer.from(head.subarray(2)).swap16().toString('utf16le');
  return head.subarray(startsWith(head, [0xef, 0xbb, 0xbf]) ? 3 : 0).toString('latin1');
}

/** An HTML page or an SVG image, by its first tags. */
function sniffMarkup(buffer: Buffer): 'html' | 'svg' | null {
  const text = leadingText(buffer).trimStart();
  if (!text.startsWith('<')) return HTML_INSIDE.test(text) ? 'html' : null;
  if (/^<svg[\s>]/i.test(text)) return 'svg';
  if (/^<(?:\?xml|!doctype\s+svg)/i.test(text) && /<svg[\s>]/i.test(text)) return 'svg';
  if (HTML_OPENINGS.test(text) || HTML_INSIDE.test(text)) return 'html';
  return null;
}

/**
 * What a file is, by its magic bytes; when they say nothing, a script by its extension, an HTML page
 * or SVG image by its first tags, else by its name or media type, or a script by a `#!` line. A file
 * that claims to be a script but carries an executable's bytes is the executable.
 */
export function detectFileType(
  bytes: Uint8Array,
  filename?: string | null,
  contentType?: string | null,
): DetectedFileType {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isPe(buffer)) return 'pe';
  if (isZip(buffer)) return isOoxml(buffer) ? 'ooxml' : 'zip';
  if (isPdf(buffer)) return 'pdf';
  for (const [type, signature, offset] of SIGNATURES) {
    if (startsWith(buffer, signature, offset)) return type;
  }
  const ext = extension(filename);
  if (ext !== null && SCRIPT_EXTENSIONS.has(ext)) return 'script';
  const markup = sniffMarkup(buffer);
  if (markup !== null) return markup;
  const media = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  if ((ext !== null && SVG_EXTENSIONS.has(ext)) || media === 'image/svg+xml') return 'svg';
  if ((ext !== null && HTML_EXTENSIONS.has(ext)) || HTML_MEDIA_TYPES.has(media)) return 'html';
  if (startsWith(buffer, [0x23, 0x21])) return 'script';
  return 'unknown';
}

/** Extensions people take for harmless: documents, images, media, archives. */
const DECOY_EXTENSIONS = new Set([
  'pdf',
  'doc',
  'docx',
  'docm',
  'dot',
  'dotx',
  'xls',
  'xlsx',
  'xlsm',
  'xlsb',
  'xlt',
  'xltx',
  'csv',
  'ppt',
  'pptx',
  'pptm',
  'pps',
  'ppsx',
  'rtf',
  'txt',
  'odt',
  'ods',
  'odp',
  'jpg',
  'jpeg',
  'png',
  'gif',
  'bmp',
  'tif',
  'tiff',
  'webp',
  'heic',
  'mp3',
  'mp4',
  'wav',
  'avi',
  'mov',
  'mkv',
  'wma',
  'wmv',
  'zip',
  'rar',
  '7z',
  'eml',
  'msg',
  'xml',
  'json',
  'ics',
  'vcf',
]);

/** Extensions of files that run, install, mount or open in a browser when double-clicked. */
const ACTIVE_EXTENSIONS = new Set([
  'exe',
  'scr',
  'com',
  'pif',
  'cpl',
  'msi',
  'msp',
  'msc',
  'dll',
  'jar',
  'lnk',
  'url',
  'scf',
  'reg',
  'chm',
  'iso',
  'img',
  'vhd',
  'vhdx',
  'appx',
  'msix',
  'appref-ms',
  'application',
  'svg',
  'svgz',
  ...SCRIPT_EXTENSIONS,
  ...HTML_EXTENSIONS,
]);

/**
 * Whether a file name hides what the file is behind a harmless-looking extension: `Invoice.Xls.htm`,
 * `scan.pdf.exe`, `photo.jpg   .scr` (spaces before the real extension are ignored).
 */
export function hasDoubleExtension(filename: string | null | undefined): boolean {
  if (filename === null || filename === undefined) return false;
  const parts = filename.split('.').map((part) => part.trim().toLowerCase());
  if (parts.length < 3) return false;
  const last = parts[parts.length - 1]!;
  const before = parts[parts.length - 2]!;
  return ACTIVE_EXTENSIONS.has(last) && DECOY_EXTENSIONS.has(before);
}
