import type { ElementType, ReactNode } from 'react';
import type { Emphasis, TextAlign, TypographyName } from '../../lib/theme';

export interface TypographyProps {
  /** A typography token: body1–body4, caption1–caption2, h1–h5, code1–code2. */
  variant?: TypographyName;
  emphasis?: Emphasis;
  align?: TextAlign;
  /** The element to render; headings default to their own tag, everything else to a span. */
  component?: ElementType;
  className?: string;
  children?: ReactNode;
  id?: string;
}

const headingTags: Partial<Record<TypographyName, ElementType>> = { h1: 'h1', h2: 'h2', h3: 'h3', h4: 'h4', h5: 'h5' };

/** Text set in one of the typography tokens (body1–4, caption1–2, h1–h5, code1–2) with an emphasis. */
export function Typography({
  variant = 'body2',
  emphasis = 'high',
  align,
  component,
  className,
  children,
  id,
}: TypographyProps) {
  const Component = component ?? headingTags[variant] ?? 'span';
  return (
    <Component
      id={id}
      className={`vigil-text vigil-text--${variant} vigil-text--${emphasis}${className ? ` ${className}` : ''}`}
      style={align ? { textAlign: align } : undefined}
    >
      {children}
    </Component>
  );
}
