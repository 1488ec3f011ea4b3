import { Button, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n';
import type { Selection } from './selection';

/**
 * The bar over a list while rows are selected: how many, "select all N matching" when every
 * loaded row is picked but more match, clearing, and the page's bulk actions.
 */
export function SelectionBar({
  selection,
  count,
  children,
  allowAllMatching = true,
}: {
  selection: Selection<unknown>;
  /** How many rows match the filters. */
  count: number | undefined;
  /** The bulk actions. */
  children?: ReactNode;
  /** Offers "select all N matching" (only where the bulk actions take a filter). */
  allowAllMatching?: boolean;
}) {
  const { t } = useTranslation();
  if (selection.mode === 'none') return null;
  const more =
    allowAllMatching &&
    count !== undefined &&
    selection.mode === 'some' &&
    selection.allLoadedSelected &&
    count > selection.size;
  return (
    <Group
      className="vigil-selection-bar"
      gap="sm"
      wrap="wrap"
      role="region"
      aria-label={t('list.selectedCount', { count: selection.size })}
    >
      <Text fw={600} size="sm" data-testid="selection-count">
        {selection.mode === 'all-matching'
          ? t('list.allMatchingSelected', { count: selection.size })
          : t('list.selectedCount', { count: selection.size })}
      </Text>
      {more && (
        <Button variant="subtle" size="compact-sm" onClick={selection.selectAllMatching}>
          {t('list.selectAllMatching', { count })}
        </Button>
      )}
      <Button variant="subtle" size="compact-sm" color="gray" onClick={selection.clear}>
        {t('list.clearSelection')}
      </Button>
      <Group gap="xs" ml="auto" wrap="wrap">
        {children}
      </Group>
    </Group>
  );
}
