import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import {
  closeNotification,
  getNotifications,
  NOTIFICATION_GAP_PX,
  NOTIFICATION_WIDTH_PX,
  NOTIFICATION_Z_INDEX,
  subscribeNotifications,
  type NotificationPosition,
  type ShownNotification,
} from './store';
import './notifications.css';

/** The HTML cleaner arrives with the first HTML notification, not with the console's first screen. */
const HtmlMessage = lazy(() => import('./html-message'));

export interface NotificationViewportProps {
  /** Label of the close button (translated by the caller, so this module needs no i18n). */
  closeLabel: string;
}

/**
 * One notification's timer: it closes after its duration; hover pauses and leaving
 * resumes; while hovered or focused, Escape closes it, Delete or Backspace stop the timer and any
 * other key restarts it.
 */
function NotificationItem({ item, closeLabel }: { item: ShownNotification; closeLabel: string }) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const remaining = useRef(item.duration);
  const startedAt = useRef(0);
  const stopped = useRef(false);
  const [engaged, setEngaged] = useState({ hovered: false, focused: false });
  const [state, setState] = useState<'running' | 'paused' | 'stopped'>('running');

  const clear = () => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
  };
  const start = () => {
    clear();
    startedAt.current = Date.now();
    timer.current = setTimeout(() => closeNotification(item.id), remaining.current);
    setState('running');
  };
  const pause = () => {
    if (timer.current === undefined) return;
    clear();
    remaining.current = Math.max(0, remaining.current - (Date.now() - startedAt.current));
    setState('paused');
  };

  useEffect(() => {
    start();
    return clear;
    // Started once when it mounts; the handlers below drive it afterwards.
  }, []);

  // Read by the key handler below; a ref, so a key pressed right after hovering is never missed.
  const engagedRef = useRef(engaged);
  const engage = (change: Partial<typeof engaged>) => {
    engagedRef.current = { ...engagedRef.current, ...change };
    setEngaged(engagedRef.current);
  };

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const { hovered, focused } = engagedRef.current;
      if (!hovered && !focused) return;
      if (event.key === 'Escape') {
        closeNotification(item.id);
      } else if (event.key === 'Delete' || event.key === 'Backspace') {
        clear();
        stopped.current = true;
        setState('stopped');
      } else {
        stopped.current = false;
        remaining.current = item.duration;
        if (hovered) setState('paused');
        else start();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [item.id, item.duration]);

  return (
    <div
      className={`vigil-notification vigil-notification--${item.type}`}
      role={item.type === 'error' || item.type === 'warning' ? 'alert' : 'status'}
      tabIndex={0}
      data-testid="notification"
      data-type={item.type}
      data-timer={state}
      style={{ width: NOTIFICATION_WIDTH_PX }}
      data-engaged={engaged.hovered || engaged.focused}
      onMouseEnter={() => {
        engage({ hovered: true });
        pause();
      }}
      onMouseLeave={() => {
        engage({ hovered: false });
        if (!stopped.current) start();
      }}
      onFocus={() => engage({ focused: true })}
      onBlur={() => engage({ focused: false })}
    >
      <span className="vigil-notification__accent" aria-hidden="true" />
      <div className="vigil-notification__body">
        {item.title !== '' && <div className="vigil-notification__title">{item.title}</div>}
        {item.useHtml ? (
          <Suspense fallback={<div className="vigil-notification__message" />}>
            <HtmlMessage html={item.message} />
          </Suspense>
        ) : (
          <div className="vigil-notification__message">{item.message}</div>
        )}
      </div>
      {item.closable && (
        <button
          type="button"
          className="vigil-notification__close"
          aria-label={closeLabel}
          onClick={() => closeNotification(item.id)}
        >
          ×
        </button>
      )}
    </div>
  );
}

function stackStyle(position: NotificationPosition, offset: number, layer: number): React.CSSProperties {
  const [vertical, horizontal] = position.split('-') as ['top' | 'bottom', 'left' | 'right'];
  return {
    position: 'fixed',
    [vertical]: offset,
    [horizontal]: NOTIFICATION_GAP_PX,
    zIndex: NOTIFICATION_Z_INDEX + layer,
    display: 'flex',
    flexDirection: vertical === 'top' ? 'column' : 'column-reverse',
    gap: NOTIFICATION_GAP_PX,
    width: NOTIFICATION_WIDTH_PX,
    pointerEvents: 'none',
  };
}

/** Renders every notification, grouped in one stack per position and offset. */
export function NotificationViewport({ closeLabel }: NotificationViewportProps) {
  const items = useSyncExternalStore(subscribeNotifications, getNotifications, getNotifications);
  if (items.length === 0) return null;
  const stacks = new Map<string, ShownNotification[]>();
  for (const item of items) {
    const key = `${item.position}|${item.offset}`;
    stacks.set(key, [...(stacks.get(key) ?? []), item]);
  }
  return createPortal(
    <div className="vigil-notifications">
      {[...stacks].map(([key, stack], index) => (
        <div
          key={key}
          className="vigil-notifications__stack"
          data-position={stack[0]!.position}
          style={stackStyle(stack[0]!.position, stack[0]!.offset, index)}
        >
          {stack.map((item) => (
            <NotificationItem key={item.id} item={item} closeLabel={closeLabel} />
          ))}
        </div>
      ))}
    </div>,
    document.body,
  );
}
