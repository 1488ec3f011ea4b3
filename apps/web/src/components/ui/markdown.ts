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

/** Which element may carry which attribute, and with what value; any other attribute is removed. */
function keepAttribute(tag: string, name: string, value: string): boolean {
  switch (name) {
    case 'href':
      return tag === 'a' && allowedHref.test(value.trim());
    case 'title':
      return tag === 'a';
    case 'src':
      return tag === 'img' && localImage.test(value.trim());
    case 'alt':
      return tag === 'img';
    case 'start':
      return tag === 'ol' && /^\d{1,6}$/.test(value);
    case 'align':
      return (tag === 'th' || tag === 'td') && (value === 'left' || value === 'center' || value === 'right');
    default:
      return false;
  }
}

let purifier: DOMPurify | null = null;

/**
 * A sanitiser of our own, so our hooks never change how other code's sanitising behaves. Its
 * hooks keep only the attributes above, open links in a new tab without a referrer, and put an
 * image's description in place of an image that is not the console's own.
 */
function getPurifier(): DOMPurify {
  if (purifier) return purifier;
  purifier = createDOMPurify(window);
  purifier.addHook('uponSanitizeAttribute', (node, event) => {
    if (!keepAttribute(node.tagName.toLowerCase(), event.attrName, event.attrValue)) event.keepAttr = false;
  });
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
    if (node.tagName === 'IMG' && !node.hasAttribute('src')) {
      const alt = node.getAttribute('alt') ?? '';
      node.replaceWith(...(alt ? [node.ownerDocument.createTextNode(alt)] : []));
    }
  });
  return purifier;
}

/** Markdown (GitHub flavour, single line breaks kept) to HTML that is safe to put in the page. */
export function renderMarkdown(source: string): string {
  const html = markdown.parse(source, { async: false });
  return getPurifier().sanitize(html, {
    ALLOWED_TAGS: [...allowedTags],
    ALLOWED_ATTR: ['href', 'title', 'src', 'alt', 'align', 'start'],
    ADD_FORBID_CONTENTS: [...droppedTags],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
  });
}
