import { IconDeviceDesktop, IconMail, IconNetwork } from '@tabler/icons-react';
import type { AlertSource } from '@vigil/contract';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';

const icons = { network: IconNetwork, endpoint: IconDeviceDesktop, mail: IconMail } as const;

/** The icon of a source with its name given (rows read the names once per table, not per row). */
export function sourceIcon(source: AlertSource, label: string): ReactElement {
  const Icon = icons[source];
  return <Icon size={15} stroke={1.7} className="vigil-source-icon" aria-label={label} role="img" />;
}

/** The small icon of where an alert came from, named for screen readers. */
export function SourceIcon({ source }: { source: AlertSource }) {
  const { t } = useTranslation();
  return sourceIcon(source, t(`triage.source.${source}`));
}
