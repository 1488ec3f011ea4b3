import './detail-drawer.css';
import { Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n';
import { JsonView } from '../ui/json-view';
import { SideDrawer } from '../ui/side-drawer';

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
    <SideDrawer opened={opened} onClose={onClose} size={size} title={title} testId={testId}>
      {children && (
        <Stack gap="md">
          {children}
          {raw && (
            <DetailSection title={rawTitle} testId="section-raw">
              {raw.isLoading ? (
                <Loader size="sm" />
              ) : raw.error ? (
                <Text c="red" size="sm">
                  {t('common.detailFailed')}
                </Text>
              ) : (
                <JsonView value={raw.raw ?? {}} testId="raw-json" />
              )}
            </DetailSection>
          )}
        </Stack>
      )}
    </SideDrawer>
  );
}

/** Label/value pairs; pairs whose value is empty are left out. */
export function KeyValues({ items, testId }: { items: Array<[string, ReactNode]>; testId?: string }) {
  const shown = items.filter(([, value]) => value !== null && value !== undefined && value !== '');
  if (shown.length === 0) return null;
  return (
    <dl className="vigil-detail-kv" data-testid={testId}>
      {shown.map(([label, value]) => (
        <div key={label} style={{ display: 'contents' }}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One titled part of a detail drawer. */
export function DetailSection({ title, children, testId }: { title: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <section className="vigil-detail-section" data-testid={testId}>
      <h3 className="vigil-detail-section__title">{title}</h3>
      {children}
    </section>
  );
}
