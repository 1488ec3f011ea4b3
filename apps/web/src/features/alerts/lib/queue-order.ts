/**
 * The queue an alert was opened from (its URL and the ids loaded, in order), kept for the tab so
 * the alert page can step to the previous and next alert without asking the server.
 */
const KEY = 'vigil.alerts.queue';
const MAX_IDS = 10_000;

export interface QueueOrder {
  /** The queue's path and query, to go back to it. */
  href: string;
  ids: number[];
}

export function saveQueueOrder(href: string, ids: readonly number[]): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ href, ids: ids.slice(0, MAX_IDS) }));
  } catch {
    // Storage full or disabled: stepping between alerts is a convenience, not a need.
  }
}

export function readQueueOrder(): QueueOrder | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<QueueOrder> | null;
    if (!value || typeof value.href !== 'string' || !value.href.startsWith('/alerts') || !Array.isArray(value.ids)) {
      return null;
    }
    return { href: value.href, ids: value.ids.filter((id): id is number => Number.isInteger(id)) };
  } catch {
    return null;
  }
}

/** The neighbours of an alert in the saved queue, and its position (1-based). */
export function neighbours(order: QueueOrder | null, id: number) {
  const index = order ? order.ids.indexOf(id) : -1;
  if (!order || index < 0) return { previous: null, next: null, position: null, total: null };
  return {
    previous: index > 0 ? (order.ids[index - 1] ?? null) : null,
    next: order.ids[index + 1] ?? null,
    position: index + 1,
    total: order.ids.length,
  };
}
