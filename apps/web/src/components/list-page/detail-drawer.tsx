import { Drawer, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { JsonView } from '../ui/json-view';

/** The read of one record's detail, as a drawer shows it. */
export interface DetailRead {
  isLoading: boolean;
  error: unknown;
  /** The record as it arrived, shown last. */
  raw?: unknown;
}

/**
 * The drawer a list opens beside itself for one row: a title, the page's sections, and (when the
 * page reads the record's detail) the record as it arrived, with its loading and error states.
 */
export function DetailDrawer({
  opened,
  onClose,
  title,
  testId,
  size = 'xl',
  raw,
  rawTitle,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  testId: string;
  size?: string | number;
  /** The detail read whose raw record ends the drawer; left out, the drawer shows only its sections. */
  raw?: DetailRead;
  /** The raw section's title. */
  rawTitle?: string;
  /** The sections; nothing while the row is not known. */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={size}
      title={title}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid={testId}
    >
      {children && (
        <Stack gap="md">
          {children}
          {raw && (
            <section className="vigil-inv-section" data-testid="section-raw">
              <h3 className="vigil-inv-section__title">{rawTitle}</h3>
              {raw.isLoading ? (
                <Loader size="sm" />
              ) : raw.error ? (
                <Text c="red" size="sm">
                  {t('common.detailFailed')}
                </Text>
              ) : (
                <JsonView value={raw.raw ?? {}} testId="raw-json" />
              )}
            </section>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
