import { Tooltip } from '@mantine/core';
import { IconDeviceDesktop, IconDevices, IconRouter, IconServer } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import type { AssetRef } from '../api/asset-lookup';
import '../../../components/ui/entity-link.css';
import './asset-link.css';

const kindIcon = {
  workstation: IconDeviceDesktop,
  server: IconServer,
  network_device: IconRouter,
  mobile: IconDevices,
  other: IconDevices,
} as const;

/** The page of an asset. */
export const assetPath = (id: number) => `/my-company/assets/${id}`;

/**
 * A link to the asset a host or an address was: its kind, its name and, for the machines that matter
 * most, its criticality. Nothing when the value names no asset.
 */
export function AssetLink({ asset, testId }: { asset: AssetRef | undefined; testId?: string }) {
  const { t } = useTranslation();
  if (!asset) return null;
  const Icon = kindIcon[asset.kind];
  const critical = asset.criticality === 'high' || asset.criticality === 'critical' ? asset.criticality : null;
  return (
    <Tooltip label={t('triage.assetLink.open', { name: asset.name })} openDelay={300}>
      <Link
        to={assetPath(asset.id)}
        className="vigil-entity-link"
        data-criticality={asset.criticality}
        data-testid={testId ?? 'asset-link'}
      >
        <Icon size={13} aria-hidden="true" />
        <span className="vigil-entity-link__name">{asset.name}</span>
        {critical && (
          <span className="vigil-entity-link__criticality">{t(`triage.assetLink.criticality.${critical}`)}</span>
        )}
      </Link>
    </Tooltip>
  );
}
