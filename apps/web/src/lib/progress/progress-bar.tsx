import { useSyncExternalStore } from 'react';
import { isProgressActive, subscribeProgress } from './store';
import './progress-bar.css';

/** The thin bar across the top of the window while calls are in flight. */
export function ProgressBar({ label }: { label: string }) {
  const active = useSyncExternalStore(subscribeProgress, isProgressActive, isProgressActive);
  return (
    <div
      className="vigil-progress"
      data-testid="progress-bar"
      data-active={active}
      role="progressbar"
      aria-label={label}
      aria-hidden={!active}
      aria-busy={active}
    >
      <div className="vigil-progress__bar" />
    </div>
  );
}
