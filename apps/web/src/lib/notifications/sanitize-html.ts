import createDOMPurify, { type DOMPurify } from 'dompurify';

/**
 * What a server message's HTML may keep: text formatting, line breaks, simple lists, inline code
 * and links. Other elements are unwrapped (their text kept); script, style and the like go with
 * their content. No attribute is kept but a link's `href`.
 */
const allowedTags = ['b', 'strong', 'i', 'em', 'u', 'br', 'p', 'ul', 'ol', 'li', 'code', 'a', 'span'];
/** Links go to the web or to a path of this console; nothing else (no javascript:, data:, //host). */
const allowedHref = /^(?:https?:\/\/|\/(?!\/))/i;

let purifier: DOMPurify | null = null;

/** A sanitiser of our own, so the link hook below never changes how other code's sanitising behaves. */
function getPurifier(): DOMPurify {
  if (purifier) return purifier;
  purifier = createDOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'A' || !node.hasAttribute('href')) return;
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  });
  return purifier;
}

/** Keeps the allowed tags of a server message's HTML, without attributes except safe links. */
export function sanitizeHtml(html: string): string {
  return getPurifier().sanitize(html, {
    ALLOWED_TAGS: allowedTags,
    ALLOWED_ATTR: ['href'],
    ALLOWED_URI_REGEXP: allowedHref,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
  });
}
