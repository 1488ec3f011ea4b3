import { IconDeviceDesktop, IconMail, IconNetwork } from '@tabler/icons-react';
import type { AlertSource } from '@vigil/contract';
import { useTranslation } from 'react-i18next';

const icons = { network: IconNetwork, endpoint: IconDeviceDesktop, mail: IconMail } as const;

/** The small icon of where an alert came from, named for screen readers. */
export function SourceIcon({ source }: { source: AlertSource }) {
  const { t } = useTranslation();
  const Icon = icons[source];
  return (
    <Icon size={15} stroke={1.7} className="vigil-source-icon" aria-label={t(`triage.source.${source}`)} role="img" />
  );
}
