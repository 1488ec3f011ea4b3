import { Checkbox, Group, Table, Text } from '@mantine/core';
import type { Permission, RoleCatalogEntry } from '@vigil/contract';
import { Fragment, useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useAbility } from '../../../lib/permissions';

const BASE_ACTIONS = ['view', 'add', 'change', 'delete'] as const;

export type PermissionMap = Map<string, Set<string>>;

export function toPermissionMap(permissions: readonly Permission[]): PermissionMap {
  return new Map(permissions.map((entry) => [entry.basename, new Set(entry.actions)]));
}

export function fromPermissionMap(map: PermissionMap, catalog: readonly RoleCatalogEntry[]): Permission[] {
  return catalog
    .map((entry) => ({
      basename: entry.basename,
      actions: entry.actions.filter((action) => map.get(entry.basename)?.has(action)),
    }))
    .filter((entry) => entry.actions.length > 0);
}

/**
 * The permission editor: one row per resource kind (grouped by console section), one column per
 * basic action, and the resource's own further actions beside them. What the signed-in
 * administrator does not hold is shown but cannot be granted (the server refuses it too).
 */
export function PermissionGrid({
  catalog,
  value,
  onChange,
}: {
  catalog: readonly RoleCatalogEntry[];
  value: PermissionMap;
  onChange: (next: PermissionMap) => void;
}) {
  const { t } = useTranslation();
  const ability = useAbility();
  const resources = t('roles.resources', { returnObjects: true }) as Record<string, string>;
  const sections = t('roles.sections', { returnObjects: true }) as Record<string, string>;
  const actionNames = t('roles.actions', { returnObjects: true }) as Record<string, string>;
  const grouped = useMemo(() => {
    const bySection = new Map<string, RoleCatalogEntry[]>();
    for (const entry of catalog) bySection.set(entry.section, [...(bySection.get(entry.section) ?? []), entry]);
    return [...bySection.entries()];
  }, [catalog]);

  const set = (basename: string, action: string, on: boolean) => {
    const next = new Map(value);
    const actions = new Set(next.get(basename));
    if (on) {
      actions.add(action);
      // Any action on a resource needs seeing it.
      if (action !== 'view' && ability.can('view', basename as never)) actions.add('view');
    } else {
      actions.delete(action);
      if (action === 'view') actions.clear();
    }
    next.set(basename, actions);
    onChange(next);
  };
  const mayGrant = (basename: string, action: string) => ability.can(action, basename as never);

  return (
    <Table.ScrollContainer minWidth={720}>
      <Table className="vigil-permission-grid" verticalSpacing={6} horizontalSpacing="sm" data-testid="permission-grid">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('roles.resource')}</Table.Th>
            {BASE_ACTIONS.map((action) => (
              <Table.Th key={action} className="vigil-permission-grid__action">
                {actionNames[action] ?? action}
              </Table.Th>
            ))}
            <Table.Th>{t('roles.moreActions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {grouped.map(([section, entries]) => (
            <Fragment key={section}>
              <Table.Tr className="vigil-permission-grid__section">
                <Table.Td colSpan={BASE_ACTIONS.length + 2}>{sections[section] ?? section}</Table.Td>
              </Table.Tr>
              {entries.map((entry) => {
                const held = value.get(entry.basename) ?? new Set<string>();
                const extra = entry.actions.filter((action) => !(BASE_ACTIONS as readonly string[]).includes(action));
                const label = resources[entry.basename] ?? entry.basename;
                return (
                  <Table.Tr key={entry.basename} data-testid={`permission-${entry.basename}`}>
                    <Table.Td>
                      <Text size="sm">{label}</Text>
                      <Text size="xs" c="dimmed" className="vigil-table__mono-inline">
                        {entry.basename}
                      </Text>
                    </Table.Td>
                    {BASE_ACTIONS.map((action) => (
                      <Table.Td key={action} className="vigil-permission-grid__action">
                        {entry.actions.includes(action) && (
                          <Checkbox
                            size="sm"
                            aria-label={`${label}: ${actionNames[action] ?? action}`}
                            checked={held.has(action)}
                            disabled={!held.has(action) && !mayGrant(entry.basename, action)}
                            onChange={(event) => set(entry.basename, action, event.currentTarget.checked)}
                          />
                        )}
                      </Table.Td>
                    ))}
                    <Table.Td>
                      <Group gap="md">
                        {extra.map((action) => (
                          <Checkbox
                            key={action}
                            size="xs"
                            label={actionNames[action] ?? action}
                            checked={held.has(action)}
                            disabled={!held.has(action) && !mayGrant(entry.basename, action)}
                            onChange={(event) => set(entry.basename, action, event.currentTarget.checked)}
                          />
                        ))}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Fragment>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
