/**
 * The notification system: a small store any code can push to (the HTTP client
 * included), rendered by `<NotificationViewport />`.
 */

export const notificationTypes = ['success', 'info', 'warning', 'error'] as const;
export type NotificationType = (typeof notificationTypes)[number];

export const notificationPositions = ['top-right', 'top-left', 'bottom-right', 'bottom-left'] as const;
export type NotificationPosition = (typeof notificationPositions)[number];

/** How long a notification stays, its width, the gap between two and the layer they are drawn on. */
export const NOTIFICATION_DURATION_MS = 4500;
export const NOTIFICATION_WIDTH_PX = 312;
export const NOTIFICATION_GAP_PX = 16;
export const NOTIFICATION_Z_INDEX = 2000;
/** Distance from the window's edge: server messages sit lower, clear of the header. */
export const NOTIFICATION_OFFSET_PX = 16;
export const SERVER_MESSAGE_OFFSET_PX = 100;
/**
 * A notification identical to one shown less than this long ago (same type, title and text) is
 * not shown again, whatever its type: the first one stands for the burst.
 */
export const NOTIFICATION_THROTTLE_MS = 2000;

export interface NotificationInput {
  type: NotificationType;
  title?: string;
  message: string;
  /** The message is HTML (a safe subset is kept). */
  useHtml?: boolean;
  position?: NotificationPosition;
  /** Milliseconds before it closes by itself. */
  duration?: number;
  /** Distance from the window's edge in pixels. */
  offset?: number;
  /** Shows a close button. */
  closable?: boolean;
}

export interface ShownNotification extends Required<Omit<NotificationInput, 'title'>> {
  id: number;
  title: string;
}

let nextId = 1;
let shown: readonly ShownNotification[] = [];
/** When each recent notification was shown, by its type, title and text; and its id. */
const recent = new Map<string, { at: number; id: number }>();

/** The id of an identical notification shown within the throttle window, else null (and remembers this one). */
function repeated(key: string, id: number): number | null {
  const now = Date.now();
  for (const [other, seen] of recent) if (now - seen.at >= NOTIFICATION_THROTTLE_MS) recent.delete(other);
  const earlier = recent.get(key);
  if (earlier) return earlier.id;
  recent.set(key, { at: now, id });
  return null;
}
const listeners = new Set<() => void>();

function publish(next: readonly ShownNotification[]): void {
  shown = next;
  for (const listener of listeners) listener();
}

/**
 * Shows a notification and returns its id. An unknown type or position is refused with a warning.
 * One identical to a notification shown less than NOTIFICATION_THROTTLE_MS ago is dropped, and
 * the id of that earlier one is returned.
 */
export function notify(input: NotificationInput): number {
  let type = input.type;
  if (!notificationTypes.includes(type)) {
    console.warn(`Unknown notification type "${String(type)}"; shown as info.`);
    type = 'info';
  }
  let position = input.position ?? 'top-right';
  if (!notificationPositions.includes(position)) {
    console.warn(`Unknown notification position "${String(position)}"; shown top-right.`);
    position = 'top-right';
  }
  const title = input.title ?? '';
  const earlier = repeated(JSON.stringify([type, title, input.message]), nextId);
  if (earlier !== null) return earlier;
  const notification: ShownNotification = {
    id: nextId++,
    type,
    title,
    message: input.message,
    useHtml: input.useHtml ?? false,
    position,
    duration: input.duration ?? NOTIFICATION_DURATION_MS,
    offset: input.offset ?? NOTIFICATION_OFFSET_PX,
    closable: input.closable ?? false,
  };
  publish([...shown, notification]);
  return notification.id;
}

/** A message sent by the server in an answer's `messages`: lower on the screen, with a close button. */
export function notifyServerMessage(input: Omit<NotificationInput, 'offset' | 'closable'>): number {
  return notify({ ...input, offset: SERVER_MESSAGE_OFFSET_PX, closable: true });
}

export function closeNotification(id: number): void {
  if (shown.some((item) => item.id === id)) publish(shown.filter((item) => item.id !== id));
}

/** Closes every notification and forgets the recent ones, so the next one shows whatever it repeats. */
export function clearNotifications(): void {
  recent.clear();
  publish([]);
}

export function subscribeNotifications(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getNotifications(): readonly ShownNotification[] {
  return shown;
}
