import createDOMPurify, { type DOMPurify } from 'dompurify';
import { Marked } from 'marked';

const markdown = new Marked({ gfm: true, breaks: true, async: false });

/** What Markdown may produce; anything else is unwrapped (its text kept) or, for the kinds below, dropped. */
const allowedTags = new Set([
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'del',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'a',
  'img',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);
/** Elements whose content is code or chrome, not text: gone with everything inside. */
const droppedTags = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'object',
  'embed',
  'template',
  'noscript',
  'textarea',
  'select',
  'title',
  'svg',
  'math',
]);
/** Links may point to the web, mail, or a path of this console; nothing else (no javascript:, data:, …). */
const allowedHref = /^(?:https?:\/\/|mailto:|\/(?!\/)|#)/i;
/** Images only from this console: a remote image would tell its host who read the text, and when. */
const localImage = /^\/(?!\/)/;

let purifier: DOMPurify | null = null;

/** A sanitiser of our own, so our settings never change how other code's sanitising behaves. */
function getPurifier(): DOMPurify {
  purifier ??= createDOMPurify(window);
  return purifier;
}

/**
 * Copies the allowed part of a tree into fresh elements: only the tags above, only the attributes
 * each needs, links opened in a new tab without a referrer, remote images replaced by their text.
 * Whatever the sanitiser let through, nothing else can reach the page.
 */
function rebuild(source: Node, target: Node, doc: Document): void {
  for (const child of Array.from(source.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) {
      target.appendChild(doc.createTextNode(child.textContent ?? ''));
      continue;
    }
    if (child.nodeType !== Node.ELEMENT_NODE) continue;
    const element = child as Element;
    const tag = element.tagName.toLowerCase();
    if (droppedTags.has(tag)) continue;
    if (!allowedTags.has(tag)) {
      rebuild(element, target, doc);
      continue;
    }
    if (tag === 'img') {
      const src = element.getAttribute('src')?.trim() ?? '';
      const alt = element.getAttribute('alt') ?? '';
      if (!localImage.test(src)) {
        if (alt) target.appendChild(doc.createTextNode(alt));
        continue;
      }
      const image = doc.createElement('img');
      image.setAttribute('src', src);
      if (alt) image.setAttribute('alt', alt);
      target.appendChild(image);
      continue;
    }
    const copy = doc.createElement(tag);
    const title = element.getAttribute('title');
    if (title && (tag === 'a' || tag === 'abbr')) copy.setAttribute('title', title);
    if (tag === 'a') {
      const href = element.getAttribute('href')?.trim() ?? '';
      if (allowedHref.test(href)) {
        copy.setAttribute('href', href);
        copy.setAttribute('target', '_blank');
        copy.setAttribute('rel', 'noopener noreferrer');
      }
    }
    if (tag === 'ol') {
      const start = element.getAttribute('start');
      if (start && /^\d{1,6}$/.test(start)) copy.setAttribute('start', start);
    }
    if (tag === 'th' || tag === 'td') {
      const align = element.getAttribute('align');
      if (align === 'left' || align === 'center' || align === 'right') copy.setAttribute('align', align);
    }
    rebuild(element, copy, doc);
    target.appendChild(copy);
  }
}

/** Markdown (GitHub flavour, single line breaks kept) to HTML that is safe to put in the page. */
export function renderMarkdown(source: string): string {
  const html = markdown.parse(source, { async: false });
  // Wrapped in an element the sanitiser unwraps, so the first block of the text is never the tree's root.
  const purified = getPurifier().sanitize(`<div>${html}</div>`, {
    ALLOWED_TAGS: [...allowedTags],
    ALLOWED_ATTR: ['href', 'title', 'src', 'alt', 'align', 'start'],
    ALLOW_DATA_ATTR: false,
  });
  // An inert document: nothing parsed into it runs or loads.
  const inert = document.implementation.createHTMLDocument('');
  const parsed = new DOMParser().parseFromString(`<body>${purified}</body>`, 'text/html');
  const container = inert.createElement('div');
  rebuild(parsed.body, container, inert);
  return container.innerHTML;
}
