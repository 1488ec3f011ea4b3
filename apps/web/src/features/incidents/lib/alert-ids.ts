/** Alert ids typed as a list (`12, 15 #19`) → [12, 15, 19], each once; null when any part is not an id. */
export function parseAlertIds(text: string): number[] | null {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (parts.length === 0) return null;
  const ids: number[] = [];
  for (const part of parts) {
    const cleaned = part.replace(/^#/, '');
    if (!/^\d{1,16}$/.test(cleaned)) return null;
    const id = Number(cleaned);
    if (!Number.isSafeInteger(id) || id < 1) return null;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}
