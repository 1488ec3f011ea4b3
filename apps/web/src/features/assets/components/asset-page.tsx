import './assets.css';
import { Alert, Anchor, Breadcrumbs, Button, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { IconArchive, IconArchiveOff, IconArrowsSplit, IconPencil } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LoadError } from '../../../components/list';
import { NotFoundPage } from '../../../components/pages/not-found-page';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { Panel } from '../../../components/ui/panel';
import { formatDate } from '../../../lib/dates';
import { useFetchState } from '../../../lib/fetch-state';
import { ApiError } from '../../../lib/http';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { Link, useNavigate, useParams } from '../../../lib/router';
import { useSignedInUser } from '../../../lib/session';
import { useUnits } from '../../users/api/lookups';
import { archiveAsset, assetKeys, fetchAsset, fetchAssetActivity, unarchiveAsset, type Asset } from '../api/assets';
import { AssetTags, CriticalityPill, sourceText, useAssetLabels } from './asset-cells';
import { AssetForm } from './asset-form';
import { RiskFigure } from './asset-risk';
import {
  AssetAlerts,
  AssetEvents,
  AssetIncidents,
  AssetIpHistory,
  AssetSoftware,
  AssetTimeline,
} from './asset-sections';
import { SplitModal } from './split-modal';

const ASSETS_PATH = '/my-company/assets';

/** An asset's page: `/my-company/assets/:id`. */
export default function AssetPage() {
  const { id: idParam } = useParams();
  const id = Number(idParam);
  const valid = Number.isSafeInteger(id) && id > 0;
  const { t } = useTranslation();
  const { data, error, fetch } = useFetchState({
    queryKey: assetKeys.detail(id),
    fetcher: (signal) => fetchAsset(id, signal),
    enabled: valid,
    clearDataOnFetch: false,
  });
  if (!valid || (error instanceof ApiError && error.status === 404)) return <NotFoundPage />;
  if (!data) return error ? <LoadError message={t('assets.page.loadFailed')} onRetry={() => void fetch()} /> : null;
  return <AssetView key={data.id} asset={data} />;
}

function AssetView({ asset }: { asset: Asset }) {
  const { t } = useTranslation();
  const labels = useAssetLabels();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mayChange = usePermission({ action: 'change', subject: 'assets' });
  const [editing, setEditing] = useState(false);
  const [splitting, setSplitting] = useState(false);
  const [archiveAsked, setArchiveAsked] = useState(false);
  const activity = useQuery({
    queryKey: assetKeys.activity(asset.id),
    queryFn: ({ signal }) => fetchAssetActivity(asset.id, signal),
  });
  const archived = asset.archivedAt !== null;
  const toggle = useMutation({
    mutationFn: () => (archived ? unarchiveAsset(asset.id) : archiveAsset(asset.id)),
    onSuccess: async (answer) => {
      notify({
        type: 'success',
        message: t(answer.archivedAt ? 'assets.archived' : 'assets.unarchived', { name: answer.name }),
      });
      setArchiveAsked(false);
      await queryClient.invalidateQueries({ queryKey: assetKeys.all });
    },
  });

  return (
    <Stack gap="lg" className="vigil-settings-page vigil-asset-page" data-testid="asset-page">
      <Breadcrumbs>
        <Anchor component={Link} to={ASSETS_PATH} size="sm">
          {t('assets.title')}
        </Anchor>
        <Text size="sm" c="dimmed">
          {asset.name}
        </Text>
      </Breadcrumbs>
      <Group justify="space-between" align="flex-start" gap="md" wrap="nowrap">
        <Stack gap={6} miw={0}>
          <Title order={1} className="vigil-page__title" data-testid="asset-title">
            {asset.name}
          </Title>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {labels.kind[asset.kind]}
              {asset.osName && ` · ${`${asset.osName} ${asset.osVersion}`.trim()}`}
            </Text>
            <CriticalityPill value={asset.criticality} label={labels.criticality[asset.criticality]} />
            {archived && <span className="vigil-pill vigil-pill--outline">{t('assets.archivedLabel')}</span>}
            {asset.tags.length > 0 && <AssetTags tags={asset.tags} />}
          </Group>
        </Stack>
        <Group gap="lg" wrap="nowrap" align="center">
          {activity.data && <RiskFigure risk={activity.data.risk} />}
          {mayChange && (
            <Group gap="xs" wrap="nowrap">
              <Button
                variant="default"
                leftSection={<IconPencil size={16} />}
                onClick={() => setEditing(true)}
                data-testid="asset-edit"
              >
                {t('assets.page.edit')}
              </Button>
              <Button
                variant="default"
                leftSection={<IconArrowsSplit size={16} />}
                onClick={() => setSplitting(true)}
                disabled={asset.ips.length + asset.macs.length + asset.sources.length === 0}
                data-testid="asset-split"
              >
                {t('assets.split.button')}
              </Button>
              <Button
                variant="default"
                color={archived ? undefined : 'red'}
                leftSection={archived ? <IconArchiveOff size={16} /> : <IconArchive size={16} />}
                onClick={() => (archived ? toggle.mutate() : setArchiveAsked(true))}
                loading={archived && toggle.isPending}
                data-testid={archived ? 'asset-unarchive' : 'asset-archive'}
              >
                {archived ? t('assets.unarchive') : t('assets.archive')}
              </Button>
            </Group>
          )}
        </Group>
      </Group>
      <div className="vigil-asset-page__grid">
        <Stack gap="lg" miw={0}>
          {activity.isPending ? (
            <Loader size="sm" />
          ) : activity.error || !activity.data ? (
            <Alert color="red" variant="light">
              {t('assets.page.activityFailed')}
            </Alert>
          ) : (
            <>
              <AssetAlerts activity={activity.data} />
              <AssetIncidents activity={activity.data} />
              <AssetEvents asset={asset} activity={activity.data} />
              <AssetIpHistory activity={activity.data} />
              <AssetSoftware activity={activity.data} />
            </>
          )}
        </Stack>
        <Stack gap="lg" miw={0}>
          <AssetFacts asset={asset} />
          <AssetTimeline asset={asset} activity={activity.data} />
        </Stack>
      </div>
      <Modal
        opened={editing}
        onClose={() => setEditing(false)}
        title={
          <Text fw={700} lineClamp={1}>
            {t('assets.editTitle', { name: asset.name })}
          </Text>
        }
        centered
        size="lg"
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {editing && <AssetForm asset={asset} onClose={() => setEditing(false)} />}
      </Modal>
      <SplitModal
        asset={asset}
        opened={splitting}
        onClose={(created) => {
          setSplitting(false);
          if (created) navigate(`${ASSETS_PATH}/${created.id}`);
        }}
      />
      <ConfirmModal
        opened={archiveAsked}
        title={t('assets.archiveTitle')}
        message={t('assets.archiveConfirm', { name: asset.name })}
        confirmLabel={t('assets.archive')}
        danger
        loading={toggle.isPending}
        onConfirm={() => toggle.mutate()}
        onClose={() => setArchiveAsked(false)}
      />
    </Stack>
  );
}

/** What is known of the asset, as a list of facts. */
function AssetFacts({ asset }: { asset: Asset }) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const labels = useAssetLabels();
  const units = useUnits();
  const none = <span className="vigil-cell-dimmed">—</span>;
  const facts: [string, React.ReactNode][] = [
    [t('assets.fields.fqdn'), asset.fqdn ? <span className="vigil-cell-mono">{asset.fqdn}</span> : none],
    [t('assets.fields.ips'), asset.ips.length ? <span className="vigil-cell-mono">{asset.ips.join(', ')}</span> : none],
    [
      t('assets.fields.macs'),
      asset.macs.length ? <span className="vigil-cell-mono">{asset.macs.join(', ')}</span> : none,
    ],
    [t('assets.fields.os'), asset.osName ? `${asset.osName} ${asset.osVersion}`.trim() : none],
    [
      t('assets.fields.owner'),
      asset.ownerEmployeeId === null ? t('assets.page.noOwner') : (asset.ownerName ?? `#${asset.ownerEmployeeId}`),
    ],
    [
      t('assets.fields.unit'),
      asset.unitId === null ? none : (units.byId.get(asset.unitId)?.name ?? `#${asset.unitId}`),
    ],
    [t('assets.fields.agentId'), asset.agentId ? <span className="vigil-cell-mono">{asset.agentId}</span> : none],
    [
      t('assets.fields.sources'),
      asset.sources.length ? (
        <Stack gap={0}>
          {asset.sources.map((source) => (
            <span key={source}>{sourceText(source, labels)}</span>
          ))}
        </Stack>
      ) : (
        none
      ),
    ],
    [
      t('assets.fields.firstSeen'),
      asset.firstSeen ? <span className="vigil-cell-mono">{formatDate(asset.firstSeen, 'isoDateTime')}</span> : none,
    ],
    [
      t('assets.fields.lastSeen'),
      asset.lastSeen ? <span className="vigil-cell-mono">{formatDate(asset.lastSeen, 'isoDateTime')}</span> : none,
    ],
    ...(me.companies.length > 1
      ? [
          [
            t('assets.fields.company'),
            me.companies.find((company) => company.id === asset.companyId)?.name ?? `#${asset.companyId}`,
          ] as [string, React.ReactNode],
        ]
      : []),
    ...(asset.notes ? [[t('assets.fields.notes'), asset.notes] as [string, React.ReactNode]] : []),
  ];
  return (
    <Panel title={t('assets.page.facts')} testId="asset-facts">
      <dl className="vigil-asset-facts">
        {facts.map(([label, value]) => (
          <div key={label} style={{ display: 'contents' }}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}
