import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

/**
 * What an administrator's HTML may keep: text structure, emphasis, lists, tables and links.
 * No scripts, styles, forms, frames or images (a remote image in a mail is a tracking pixel),
 * links only to http, https and mailto.
 */
const mailHtmlOptions: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'div',
    'span',
    'b',
    'strong',
    'i',
    'em',
    'u',
    's',
    'small',
    'sub',
    'sup',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'pre',
    'code',
    'ul',
    'ol',
    'li',
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: { a: ['href', 'title'], th: ['colspan', 'rowspan'], td: ['colspan', 'rowspan'], ol: ['start'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/** Keeps only the safe subset of HTML in a message body. */
export function sanitizeMailHtml(html: string): string {
  return sanitizeHtml(html, mailHtmlOptions).trim();
}

const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Plain text as HTML: escaped, blank lines make paragraphs, single line breaks stay. */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}

/** The text of an HTML body, for the plain-text part: block ends become line breaks, tags go. */
export function htmlToText(html: string): string {
  const marked = html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li[\s>]/gi, (tag) => `\n- ${tag}`)
    .replace(/<\/(p|div|h[1-6]|blockquote|pre|ul|ol|table|tr)>/gi, (tag) => `${tag}\n\n`);
  const text = sanitizeHtml(marked, { allowedTags: [], allowedAttributes: {} }).replace(
    /&(amp|lt|gt|quot|#39);/g,
    (entity) => entities[entity] ?? entity,
  );
  return text
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const markdown = new Marked({ gfm: true, breaks: false, async: false });

/** Markdown (the release notes) as safe HTML. */
export function markdownToHtml(source: string): string {
  return sanitizeMailHtml(markdown.parse(source, { async: false }));
}

/**
 * A message body from what the caller gave: both parts as given (the HTML made safe), or the
 * missing part derived from the other one.
 */
export function mailBody(input: { text?: string | undefined; html?: string | undefined }): {
  text: string;
  html: string;
} {
  const html = input.html === undefined ? undefined : sanitizeMailHtml(input.html);
  if (input.text !== undefined && html !== undefined) return { text: input.text, html };
  if (input.text !== undefined) return { text: input.text, html: textToHtml(input.text) };
  if (html !== undefined) return { text: htmlToText(html), html };
  return { text: '', html: '' };
}
