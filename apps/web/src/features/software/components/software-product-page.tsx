import './software.css';
import { Anchor, Breadcrumbs, Group, Loader, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { LoadError } from '../../../components/list';
import { KeyValues } from '../../../components/list-page';
import { NotFoundPage } from '../../../components/pages/not-found-page';
import { Panel } from '../../../components/ui/panel';
import { formatDate } from '../../../lib/dates';
import { useFetchState } from '../../../lib/fetch-state';
import { ApiError } from '../../../lib/http';
import { useTranslation, valueLabel } from '../../../lib/i18n';
import { usePermission } from '../../../lib/permissions';
import { Link, useParams } from '../../../lib/router';
import { endpointEventsUrl } from '../../triage/pivots';
import {
  assetPath,
  fetchInstalls,
  fetchProduct,
  fetchProductVersions,
  SOFTWARE_PATH,
  softwareKeys,
  type Product,
  type Version,
} from '../api/software';

/** A software product's page: `/my-company/software/<id>`. */
export default function SoftwareProductPage() {
  const { id: idParam } = useParams();
  const id = Number(idParam);
  const valid = Number.isSafeInteger(id) && id > 0;
  const { t } = useTranslation();
  const { data, error, fetch } = useFetchState({
    queryKey: softwareKeys.product(id),
    fetcher: (signal) => fetchProduct(id, signal),
    enabled: valid,
    clearDataOnFetch: false,
  });
  if (!valid || (error instanceof ApiError && error.status === 404)) return <NotFoundPage />;
  if (!data) return error ? <LoadError message={t('software.page.loadFailed')} onRetry={() => void fetch()} /> : null;
  return <ProductView product={data} />;
}

const date = (iso: string) => <span className="vigil-cell-mono">{formatDate(iso, 'isoDateTime')}</span>;

/** What a panel shows while its rows load, when they failed, or when there are none. */
function rowsState(rows: readonly unknown[] | undefined, pending: boolean, failed: string, empty: string) {
  if (pending) return <Loader size="sm" />;
  if (!rows)
    return (
      <Text size="sm" c="red">
        {failed}
      </Text>
    );
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  return null;
}

function ProductView({ product }: { product: Product }) {
  const { t } = useTranslation();
  const mayViewVersions = usePermission({ action: 'view', subject: 'software/versions' });
  const [chosen, setChosen] = useState<number | null>(null);
  const versions = useQuery({
    queryKey: softwareKeys.versions(product.id),
    queryFn: ({ signal }) => fetchProductVersions(product.id, signal),
    enabled: mayViewVersions,
  });
  const rows = versions.data?.results;
  const chosenVersion = rows?.find((version) => version.id === chosen) ?? null;

  return (
    <Stack gap="lg" className="vigil-settings-page vigil-software-product-page" data-testid="software-product-page">
      <Breadcrumbs>
        <Anchor component={Link} to={SOFTWARE_PATH} size="sm">
          {t('software.title')}
        </Anchor>
        <Text size="sm" c="dimmed">
          {product.name}
        </Text>
      </Breadcrumbs>
      <Stack gap={4}>
        <Title order={1} className="vigil-page__title" data-testid="software-product-name">
          {product.name}
        </Title>
        <Text size="sm" c="dimmed">
          {product.vendor || t('software.noVendor')}
        </Text>
      </Stack>
      <Panel title={t('software.page.facts')} testId="software-facts">
        <div className="vigil-software-facts">
          <KeyValues
            items={[
              [t('software.fields.vendor'), product.vendor || t('software.noVendor')],
              [t('software.fields.versions'), String(product.versionCount)],
              [t('software.fields.installs'), String(product.installCount)],
              [t('software.fields.firstSeen'), date(product.firstSeen)],
              [t('software.fields.lastSeen'), date(product.lastSeen)],
            ]}
          />
        </div>
      </Panel>
      {mayViewVersions && (
        <div className="vigil-software-page__grid">
          <Panel title={t('software.page.versions')} testId="software-versions">
            {rowsState(rows, versions.isPending, t('software.loadFailed'), t('software.page.noVersions')) ?? (
              <VersionTable versions={rows!} chosen={chosen} onChoose={setChosen} />
            )}
          </Panel>
          <Panel
            title={
              chosenVersion
                ? t('software.page.installs', { version: chosenVersion.version })
                : t('software.page.allInstalls')
            }
            testId="software-installs"
            extra={
              rows && rows.length > 1 ? (
                <Select
                  size="xs"
                  w={180}
                  aria-label={t('software.page.chooseVersion')}
                  placeholder={t('software.page.allVersions')}
                  data={rows.map((version) => ({ value: String(version.id), label: version.version }))}
                  value={chosen === null ? null : String(chosen)}
                  onChange={(next) => setChosen(next ? Number(next) : null)}
                  clearable
                  comboboxProps={{ withinPortal: true }}
                  data-testid="software-version-choice"
                />
              ) : undefined
            }
          >
            <Installs productId={product.id} versionId={chosen} />
          </Panel>
        </div>
      )}
    </Stack>
  );
}

function VersionTable({
  versions,
  chosen,
  onChoose,
}: {
  versions: readonly Version[];
  chosen: number | null;
  onChoose: (id: number | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table
        striped
        highlightOnHover
        verticalSpacing={6}
        fz="sm"
        className="vigil-software-versions vigil-nowrap-table"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('software.fields.version')}</Table.Th>
            <Table.Th>{t('software.fields.assets')}</Table.Th>
            <Table.Th>{t('software.fields.firstSeen')}</Table.Th>
            <Table.Th>{t('software.fields.lastSeen')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {versions.map((version) => (
            <Table.Tr
              key={version.id}
              data-chosen={version.id === chosen || undefined}
              aria-selected={version.id === chosen}
              tabIndex={0}
              onClick={() => onChoose(version.id === chosen ? null : version.id)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  onChoose(version.id === chosen ? null : version.id);
                }
              }}
              data-testid="software-version-row"
            >
              <Table.Td className="vigil-cell-mono">{version.version}</Table.Td>
              <Table.Td className="vigil-cell-mono">{version.assetCount}</Table.Td>
              <Table.Td>{date(version.firstSeen)}</Table.Td>
              <Table.Td>{date(version.lastSeen)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Installs({ productId, versionId }: { productId: number; versionId: number | null }) {
  const { t } = useTranslation();
  const installs = useQuery({
    queryKey: softwareKeys.installs(productId, versionId),
    queryFn: ({ signal }) => fetchInstalls(productId, versionId, signal),
  });
  const rows = installs.data?.results;
  const state = rowsState(rows, installs.isPending, t('software.page.installsFailed'), t('software.page.noInstalls'));
  if (state) return state;
  const host = (hostName: string, assetId: number | null): ReactNode =>
    assetId === null ? (
      <Anchor component={Link} to={endpointEventsUrl({ host_name: hostName })} size="sm">
        {hostName}
      </Anchor>
    ) : (
      <Anchor component={Link} to={assetPath(assetId)} size="sm" title={t('software.page.openAsset')}>
        {hostName}
      </Anchor>
    );
  return (
    <>
      <Table.ScrollContainer minWidth={520}>
        <Table striped verticalSpacing={6} fz="sm" className="vigil-nowrap-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('software.fields.host')}</Table.Th>
              <Table.Th>{t('software.fields.firstSeen')}</Table.Th>
              <Table.Th>{t('software.fields.lastSeen')}</Table.Th>
              <Table.Th>{t('software.fields.source')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows!.map((install) => (
              <Table.Tr key={install.id} data-testid="software-install-row">
                <Table.Td>{host(install.hostName, install.assetId)}</Table.Td>
                <Table.Td>{date(install.firstSeen)}</Table.Td>
                <Table.Td>{date(install.lastSeen)}</Table.Td>
                <Table.Td>{valueLabel('software.sources', install.source)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {installs.data && installs.data.count > rows!.length && (
        <Group justify="flex-end" mt="xs">
          <Text size="xs" c="dimmed">
            {t('software.page.shown', { shown: rows!.length, total: installs.data.count })}
          </Text>
        </Group>
      )}
    </>
  );
}
