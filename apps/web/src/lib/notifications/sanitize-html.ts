const allowedTags = new Set(['B', 'STRONG', 'I', 'EM', 'U', 'BR', 'P', 'UL', 'OL', 'LI', 'CODE', 'A', 'SPAN']);

function clean(node: Node, into: Node, doc: Document): void {
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) {
      into.appendChild(doc.createTextNode(child.textContent ?? ''));
    } else if (child instanceof Element) {
      if (!allowedTags.has(child.tagName)) {
        // Unknown elements keep their text (scripts and styles lose everything).
        if (child.tagName !== 'SCRIPT' && child.tagName !== 'STYLE') clean(child, into, doc);
        continue;
      }
      const copy = doc.createElement(child.tagName.toLowerCase());
      const href = child.getAttribute('href');
      if (child.tagName === 'A' && href && /^(https?:\/\/|\/(?!\/))/i.test(href)) {
        copy.setAttribute('href', href);
        copy.setAttribute('rel', 'noopener noreferrer');
        copy.setAttribute('target', '_blank');
      }
      clean(child, copy, doc);
      into.appendChild(copy);
    }
  }
}

/** Keeps a small set of formatting tags of a server message's HTML, without attributes except safe links. */
export function sanitizeHtml(html: string): string {
  const parsed = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const container = document.createElement('div');
  clean(parsed.body, container, document);
  return container.innerHTML;
}
