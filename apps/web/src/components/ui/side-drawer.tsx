import { Drawer, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n';

/** A drawer from the right beside a list (a form, a row's details); a text title is shown as a heading. */
export function SideDrawer({
  opened,
  onClose,
  title,
  size = 'xl',
  testId,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  size?: string | number;
  testId?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={size}
      title={
        typeof title === 'string' ? (
          <Text fw={700} size="lg">
            {title}
          </Text>
        ) : (
          title
        )
      }
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid={testId}
    >
      {children}
    </Drawer>
  );
}
