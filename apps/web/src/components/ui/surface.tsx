import type { ElementType, ReactNode } from 'react';
import { surfaceLevels, type SurfaceLevel } from '../../lib/theme';

export interface SurfaceProps {
  /** 0 to 6, or `blur`. Anything else is refused with a warning and drawn at level 0. */
  level?: SurfaceLevel;
  component?: ElementType;
  className?: string;
  children?: ReactNode;
  bordered?: boolean;
}

/** A panel painted with one of the theme's surface levels. */
export function Surface({
  level = 1,
  component: Component = 'div',
  className,
  children,
  bordered = true,
}: SurfaceProps) {
  let shown: SurfaceLevel = level;
  if (!surfaceLevels.includes(level)) {
    console.warn(`Surface level ${String(level)} is not one of 0–6 or "blur"; drawn at level 0.`);
    shown = 0;
  }
  return (
    <Component
      className={`vigil-surface vigil-surface--${shown}${bordered ? ' vigil-surface--bordered' : ''}${className ? ` ${className}` : ''}`}
    >
      {children}
    </Component>
  );
}
