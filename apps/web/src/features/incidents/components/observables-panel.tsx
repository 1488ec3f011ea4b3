import { ActionIcon, Anchor, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import { Note } from '../../../components/ui/note';
import { groupObservables, incidentPivot } from '../lib/observables';
import { useAssetLookup } from '../../assets/api/asset-lookup';
import { AssetLink } from '../../assets/components/asset-link';
import { EmployeeLink } from '../../employees/components/employee-link';

const knownKinds = ['ip', 'host', 'user', 'domain', 'url', 'hash', 'file', 'email'] as const;
type KnownKind = (typeof knownKinds)[number];
const isKnownKind = (kind: string): kind is KnownKind => (knownKinds as readonly string[]).includes(kind);

/** What the incident's alerts point at, by kind; each value leads to the events where it appears. */
export function ObservablesPanel({
  observables,
  companyId,
}: {
  observables: readonly { kind: string; value: string }[];
  companyId: number;
}) {
  const { t } = useTranslation();
  const groups = useMemo(() => groupObservables(observables), [observables]);
  // Hosts and addresses link to the asset they are now.
  const assets = useAssetLookup({
    companyId,
    ips: observables.filter((o) => o.kind === 'ip').map((o) => o.value),
    hosts: observables.filter((o) => o.kind === 'host').map((o) => o.value),
  });
  if (groups.length === 0) return <Note>{t('incidents.observables.none')}</Note>;
  return (
    <Stack gap="sm" data-testid="incident-observables">
      {groups.map(({ kind, values }) => (
        <div key={kind}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600} mb={4}>
            {isKnownKind(kind) ? t(`incidents.observables.kinds.${kind}`) : kind}
          </Text>
          <ul className="vigil-incident-observables">
            {values.map((value) => {
              const href = incidentPivot(kind, value);
              return (
                <li key={value}>
                  <Group gap={4} wrap="nowrap" justify="space-between">
                    {href ? (
                      <Tooltip label={t('incidents.observables.pivot')} withArrow openDelay={400}>
                        <Anchor
                          component={Link}
                          to={href}
                          size="sm"
                          className="vigil-incident-mono"
                          truncate
                          data-kind={kind}
                        >
                          {value}
                        </Anchor>
                      </Tooltip>
                    ) : (
                      <Text size="sm" className="vigil-incident-mono" truncate>
                        {value}
                      </Text>
                    )}
                    <AssetLink asset={assets.get(`${kind}:${value}`)} testId="incident-observable-asset" />
                    {(kind === 'email' || kind === 'user') && (
                      <EmployeeLink
                        companyId={companyId}
                        {...(kind === 'email' ? { email: value } : { account: value })}
                      />
                    )}
                    <CopyButton value={value} timeout={1500}>
                      {({ copied, copy }) => (
                        <ActionIcon
                          size="sm"
                          variant="subtle"
                          color={copied ? 'green' : 'gray'}
                          onClick={copy}
                          aria-label={t('incidents.observables.copy', { value })}
                        >
                          {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                        </ActionIcon>
                      )}
                    </CopyButton>
                  </Group>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </Stack>
  );
}
