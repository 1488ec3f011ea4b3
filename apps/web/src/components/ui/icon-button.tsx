import { ActionIcon, Tooltip, type ActionIconProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A button that shows only an icon: its label names it for assistive technology and shows as its
 * tooltip, followed by the keyboard shortcut that does the same, if any.
 */
export function IconButton({
  label,
  icon,
  onClick,
  shortcut,
  arrow = false,
  size,
  disabled,
  loading,
}: {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  shortcut?: string;
  arrow?: boolean;
  size?: ActionIconProps['size'];
  disabled?: boolean;
  loading?: boolean;
}) {
  return (
    <Tooltip label={shortcut ? `${label} (${shortcut})` : label} withArrow={arrow}>
      <ActionIcon
        variant="default"
        size={size}
        disabled={disabled}
        loading={loading}
        onClick={onClick}
        aria-label={label}
      >
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}
