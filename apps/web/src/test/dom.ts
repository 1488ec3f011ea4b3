/** HTML as a detached element, to ask it questions (what it contains, which attributes are left). */
export function detached(html: string): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = html;
  return host;
}
