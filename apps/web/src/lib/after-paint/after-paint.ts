import { startTransition, useEffect, useState } from 'react';

/**
 * False while a page draws its first frame, true once the browser has painted it. Parts a person
 * does not need in that first frame (a filter bar, closed dialogs) mount then, as an interruptible
 * transition, so the rows get on screen sooner and arriving data is never held up by them.
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (painted) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const later = () => {
      // A task queued from an animation frame runs after that frame has been painted.
      timer = setTimeout(() => startTransition(() => setPainted(true)), 0);
    };
    const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(later) : undefined;
    if (frame === undefined) later();
    return () => {
      if (frame !== undefined) cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [painted]);
  return painted;
}
