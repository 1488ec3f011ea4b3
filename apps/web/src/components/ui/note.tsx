import { Text, type TextProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** A quiet line of text: what a part of a page says when it has nothing to show, or a hint beside a control. */
export function Note({ children, ...text }: TextProps & { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed" {...text}>
      {children}
    </Text>
  );
}
