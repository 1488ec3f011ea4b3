import { IconDeviceDesktop, IconMail, IconNetwork } from '@tabler/icons-react';
import type { AlertSource } from '@vigil/contract';
import type { ReactElement } from 'react';
import { useTranslation } from '../../../lib/i18n';

const icons = { network: IconNetwork, endpoint: IconDeviceDesktop, mail: IconMail } as const;

/** Tabler's names of the icons above. */
const tablerNames: Record<AlertSource, string> = { network: 'network', endpoint: 'device-desktop', mail: 'mail' };

/**
 * The same Tabler icons (MIT) with all their strokes in one path: the very same picture (one colour,
 * opaque strokes), drawn with two elements instead of up to nine, for rows that mount as they scroll.
 */
const oneStroke: Record<AlertSource, string> = {
  network:
    'M6 9a6 6 0 1 0 12 0a6 6 0 0 0 -12 0 M12 3c1.333 .333 2 2.333 2 6s-.667 5.667 -2 6 ' +
    'M12 3c-1.333 .333 -2 2.333 -2 6s.667 5.667 2 6 M6 9h12 M3 20h7 M14 20h7 M10 20a2 2 0 1 0 4 0a2 2 0 0 0 -4 0 M12 15v3',
  endpoint: 'M3 5a1 1 0 0 1 1 -1h16a1 1 0 0 1 1 1v10a1 1 0 0 1 -1 1h-16a1 1 0 0 1 -1 -1v-10 M7 20h10 M9 16v4 M15 16v4',
  mail: 'M3 7a2 2 0 0 1 2 -2h14a2 2 0 0 1 2 2v10a2 2 0 0 1 -2 2h-14a2 2 0 0 1 -2 -2v-10 M3 7l9 6l9 -6',
};

/** The icon of a source, named by `label` (rows read the names once per table, not per row). */
export function sourceIcon(source: AlertSource, label: string): ReactElement {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={15}
      height={15}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.7}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={`tabler-icon tabler-icon-${tablerNames[source]} vigil-source-icon`}
      aria-label={label}
      role="img"
    >
      <path d={oneStroke[source]} />
    </svg>
  );
}

/** The small icon of where an alert came from, named for screen readers. */
export function SourceIcon({ source }: { source: AlertSource }) {
  const { t } = useTranslation();
  const Icon = icons[source];
  return (
    <Icon size={15} stroke={1.7} className="vigil-source-icon" aria-label={t(`triage.source.${source}`)} role="img" />
  );
}
