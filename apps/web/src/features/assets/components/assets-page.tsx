import './assets.css';
import { Button, Group, Modal, Text } from '@mantine/core';
import { IconAdjustments, IconArchive, IconGitMerge, IconNetwork, IconPlus, IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Asset as AssetWire } from '@vigil/contract';
import { assetCriticalityValues, assetKindValues } from '@vigil/contract/client';
import { useCallback, useMemo, useState } from 'react';
import type { Column } from '../../../components/list';
import {
  ListPage,
  noValue,
  presentColumns,
  stackCell,
  usePagedListPage,
  type FilterField,
} from '../../../components/list-page';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { formatDate } from '../../../lib/dates';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { useNavigate } from '../../../lib/router';
import { useSignedInUser } from '../../../lib/session';
import { useUnits } from '../../users/api/lookups';
import { assetKeys, bulkChangeAssets, assetList, type Asset } from '../api/assets';
import { AssetForm, OwnerSelect } from './asset-form';
import { AssetImportModal } from './asset-import';
import { AssetTags, companyNames, CriticalityPill, sourceLabel, useAssetLabels } from './asset-cells';
import { BulkChangeModal } from './bulk-modal';
import { MergeModal } from './merge-modal';
import { NetworksModal } from './networks-modal';

type Filters = typeof assetList.filters;

export const assetPath = (id: number) => `/my-company/assets/${id}`;

/** My company → Assets: filters in the URL; create, CSV import, bulk archive, merge, the company's networks. */
export default function AssetsPage() {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const labels = useAssetLabels();
  const units = useUnits();
  const mayAdd = usePermission({ action: 'add', subject: 'assets' });
  const mayChange = usePermission({ action: 'change', subject: 'assets' });
  const model = usePagedListPage<AssetWire, Filters>(assetList, { selectable: mayChange });
  const { list, selection } = model;
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [networks, setNetworks] = useState(false);
  const [merging, setMerging] = useState(false);
  const [archiveAsked, setArchiveAsked] = useState(false);
  const selected = () => model.rows.filter((row) => selection.has(row.id));
  const [changing, setChanging] = useState(false);
  const bulkArchive = useMutation({
    mutationFn: async () => (await bulkChangeAssets({ ids: selected().map((row) => row.id), archived: true })).changed,
    onSuccess: async (count) => {
      notify({ type: 'success', message: t('assets.bulkArchived', { count }) });
      setArchiveAsked(false);
      selection.clear();
      await queryClient.invalidateQueries({ queryKey: assetKeys.all });
    },
  });

  const filters: FilterField<Filters>[] = [
    { kind: 'search', name: 'search', label: t('common.search'), placeholder: t('assets.searchPlaceholder') },
    {
      kind: 'choice',
      name: 'kind',
      label: t('assets.fields.kind'),
      options: assetKindValues.map((value) => ({ value, label: t(`assets.kind.${value}`) })),
      testId: 'filter-kind',
    },
    {
      kind: 'choice',
      name: 'criticality',
      label: t('assets.fields.criticality'),
      options: [...assetCriticalityValues]
        .reverse()
        .map((value) => ({ value, label: t(`assets.criticality.${value}`) })),
      testId: 'filter-criticality',
    },
    {
      kind: 'segmented',
      name: 'archived',
      label: t('assets.fields.state'),
      options: [
        { value: undefined, label: t('assets.anyState') },
        { value: false, label: t('assets.activeState') },
        { value: true, label: t('assets.archivedLabel') },
      ],
      testId: 'filter-archived',
    },
  ];
  const more: FilterField<Filters>[] = [
    {
      kind: 'search',
      name: 'ip',
      label: t('assets.fields.ip'),
      placeholder: t('assets.ipPlaceholder'),
      testId: 'filter-ip',
    },
    { kind: 'tags', name: 'tag', label: t('assets.fields.tags'), testId: 'filter-tag' },
    {
      kind: 'custom',
      name: 'ownerEmployeeId',
      render: () => (
        <OwnerSelect
          value={list.filters.ownerEmployeeId?.[0] ?? null}
          onChange={(id) => list.setFilters({ ownerEmployeeId: id === null ? undefined : [id] })}
          placeholder={t('assets.anyOwner')}
          className="vigil-filters__tags"
          testId="filter-owner"
        />
      ),
    },
    ...(units.allowed
      ? [
          {
            kind: 'ids',
            name: 'unitId',
            label: t('assets.fields.unit'),
            options: units.units.map((unit) => ({ value: unit.id, label: unit.name })),
          } as const,
        ]
      : []),
    { kind: 'company', name: 'companyId', label: t('assets.fields.company') },
  ];

  // Rows call no hooks: every text a cell shows is read here, once per language.
  const columns = useMemo(() => {
    const archivedLabel = t('assets.archivedLabel');
    // The company goes under the name for people who see several: a column of its own would not fit.
    const companyName = companyNames(me.companies);
    return presentColumns<Asset>([
      {
        id: 'name',
        header: t('assets.fields.name'),
        width: 'minmax(160px, 2fr)',
        sortField: 'name',
        render: (row) =>
          stackCell(
            <span className="vigil-asset-name" title={row.name}>
              {row.name}
              {row.archivedAt !== null && <span className="vigil-pill vigil-pill--outline">{archivedLabel}</span>}
            </span>,
            [row.fqdn.toLowerCase() !== row.name.toLowerCase() && row.fqdn, companyName(row.companyId)]
              .filter(Boolean)
              .join(' · ') || null,
            'vigil-asset-cell-main',
          ),
      },
      {
        id: 'kind',
        header: t('assets.fields.kindAndOs'),
        width: 'minmax(130px, 1fr)',
        render: (row) =>
          stackCell(labels.kind[row.kind], `${row.osName} ${row.osVersion}`.trim() || null, 'vigil-asset-cell-main'),
      },
      {
        id: 'ips',
        header: t('assets.fields.ips'),
        width: '140px',
        render: (row) =>
          row.ips.length === 0 && row.macs.length === 0
            ? noValue
            : stackCell(
                <span className="vigil-cell-mono vigil-asset-ellipsis" title={row.ips.join(', ')}>
                  {row.ips.slice(0, 2).join(', ')}
                  {row.ips.length > 2 && ` ${t('assets.more', { count: row.ips.length - 2 })}`}
                </span>,
                row.macs[0] ?? null,
                'vigil-asset-cell-main',
              ),
      },
      {
        id: 'owner',
        header: t('assets.fields.owner'),
        width: 'minmax(80px, 1fr)',
        render: (row) =>
          row.ownerEmployeeId === null ? (
            noValue
          ) : (
            <span className="vigil-asset-ellipsis">{row.ownerName ?? `#${row.ownerEmployeeId}`}</span>
          ),
      },
      {
        id: 'criticality',
        header: t('assets.fields.criticality'),
        width: '125px',
        sortField: 'criticality',
        render: (row) => <CriticalityPill value={row.criticality} label={labels.criticality[row.criticality]} />,
      },
      {
        id: 'tags',
        header: t('assets.fields.tags'),
        width: 'minmax(110px, 1fr)',
        render: (row) =>
          row.tags.length === 0 ? noValue : <AssetTags tags={row.tags} max={row.tags.length > 2 ? 1 : 2} />,
      },
      {
        id: 'lastSeen',
        header: t('assets.fields.lastSeenAndSources'),
        width: 'minmax(150px, 1fr)',
        sortField: 'last_seen',
        render: (row) =>
          stackCell(
            row.lastSeen ? (
              <time className="vigil-cell-mono" dateTime={row.lastSeen}>
                {formatDate(row.lastSeen, 'isoDateTime')}
              </time>
            ) : (
              noValue
            ),
            row.sources.length === 0 ? null : <SourcesLine sources={row.sources} labels={labels} />,
            'vigil-asset-cell-main',
          ),
      },
    ] satisfies (Column<Asset> | null | false)[]);
  }, [t, me.companies, labels]);
  const rowLabel = useCallback((row: Asset) => t('assets.select', { name: row.name }), [t]);
  const filtered = Object.keys(list.filters).length > 0;
  const chosen = selected();
  const headerActions = [
    mayChange && {
      icon: IconNetwork,
      label: t('assets.networks.button'),
      onClick: () => setNetworks(true),
      testId: 'asset-networks-open',
    },
    mayAdd && {
      icon: IconUpload,
      label: t('assets.import.button'),
      onClick: () => setImporting(true),
      testId: 'asset-import-open',
    },
    mayAdd && {
      icon: IconPlus,
      label: t('assets.create'),
      onClick: () => setCreating(true),
      testId: 'asset-create',
      primary: true,
    },
  ].filter((action) => action !== false);

  return (
    <ListPage
      model={model}
      title={t('assets.title')}
      subtitle={t('assets.subtitle')}
      actions={
        <Group gap="sm">
          {headerActions.map((action) => (
            <Button
              key={action.testId}
              variant={action.primary ? 'filled' : 'default'}
              leftSection={<action.icon size={16} />}
              onClick={action.onClick}
              data-testid={action.testId}
            >
              {action.label}
            </Button>
          ))}
        </Group>
      }
      filters={filters}
      moreFilters={more}
      table={{
        columns,
        label: t('assets.title'),
        testId: 'assets-table',
        rowTestId: 'asset-row',
        rowHeight: 52,
        rowLabel,
        onRowClick: (row) => navigate(assetPath(row.id)),
        empty: filtered ? t('assets.nothingMatches') : t('assets.empty'),
        loadFailed: t('assets.loadFailed'),
      }}
      selectAllMatching={false}
      bulkActions={
        mayChange ? (
          <Group gap="xs">
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconGitMerge size={14} />}
              disabled={chosen.length < 2}
              onClick={() => setMerging(true)}
              data-testid="asset-bulk-merge"
            >
              {t('assets.merge.button')}
            </Button>
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconAdjustments size={14} />}
              onClick={() => setChanging(true)}
              data-testid="asset-bulk-change"
            >
              {t('assets.bulk.button')}
            </Button>
            <Button
              size="compact-sm"
              color="red"
              leftSection={<IconArchive size={14} />}
              onClick={() => setArchiveAsked(true)}
              data-testid="asset-bulk-archive"
            >
              {t('assets.bulkArchive')}
            </Button>
          </Group>
        ) : undefined
      }
      footerTestId="assets"
    >
      <Modal
        opened={creating}
        onClose={() => setCreating(false)}
        title={<Text fw={700}>{t('assets.newTitle')}</Text>}
        centered
        size="lg"
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {creating && (
          <AssetForm
            asset={null}
            onClose={(created) => {
              setCreating(false);
              if (created) navigate(assetPath(created.id));
            }}
          />
        )}
      </Modal>
      <AssetImportModal opened={importing} onClose={() => setImporting(false)} />
      <NetworksModal opened={networks} onClose={() => setNetworks(false)} />
      <MergeModal
        assets={merging ? chosen : []}
        onClose={(merged) => {
          setMerging(false);
          if (merged) selection.clear();
        }}
      />
      <BulkChangeModal
        assets={changing ? chosen : []}
        onClose={(changed) => {
          setChanging(false);
          if (changed) selection.clear();
        }}
      />
      <ConfirmModal
        opened={archiveAsked}
        title={t('assets.bulkArchiveTitle')}
        message={t('assets.bulkArchiveConfirm', { count: selection.size })}
        confirmLabel={t('assets.bulkArchive')}
        danger
        loading={bulkArchive.isPending}
        onConfirm={() => bulkArchive.mutate()}
        onClose={() => setArchiveAsked(false)}
      />
    </ListPage>
  );
}

/** Who reports an asset, named; the title says it whole, then each source as stored. */
function SourcesLine({ sources, labels }: { sources: readonly string[]; labels: Parameters<typeof sourceLabel>[1] }) {
  const shown = [...new Set(sources.map((source) => sourceLabel(source, labels)))].join(', ');
  return <span title={[shown, ...sources].join('\n')}>{shown}</span>;
}
