import { ActionIcon, Tooltip, type ActionIconProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A button that shows only an icon: its label names it for assistive technology and shows as its
 * tooltip, followed by the keyboard shortcut that does the same, if any.
 */
export function IconButton({
  label,
  icon,
  shortcut,
  arrow = false,
  ...button
}: Pick<ActionIconProps, 'size' | 'disabled' | 'loading'> & {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  shortcut?: string;
  arrow?: boolean;
}) {
  return (
    <Tooltip label={shortcut ? `${label} (${shortcut})` : label} withArrow={arrow}>
      <ActionIcon variant="default" aria-label={label} {...button}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}
