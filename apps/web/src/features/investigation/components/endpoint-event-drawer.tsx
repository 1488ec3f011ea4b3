import { Button, Group, Text } from '@mantine/core';
import { IconBinaryTree } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { DetailDrawer } from '../../../components/list-page';
import { formatDate } from '../../../lib/dates';
import { useEndpointEvent, type EndpointEventView, type StoredEvent } from '../api/investigation';
import { endpointActionLabel, endpointCategoryLabel } from '../lib/codes';
import { actionLabel } from '../lib/actions';
import { accountLabel } from '../lib/summaries';
import { CodeName, HashValue, KeyValues, Pivot, Section, useCompanyName, useEventDetail } from './shared';

type Hashes = { md5: string | null; sha1: string | null; sha256: string | null };

const hashItems = (hash: Hashes): Array<[string, ReactNode]> => [
  ['SHA-256', hash.sha256 ? <HashValue value={hash.sha256} /> : null],
  ['SHA-1', hash.sha1 ? <HashValue value={hash.sha1} link={false} /> : null],
  ['MD5', hash.md5 ? <HashValue value={hash.md5} link={false} /> : null],
];

const mono = (value: string | null | undefined) => (value ? <span className="vigil-inv-mono">{value}</span> : null);

/** One endpoint event: what happened, on which host, by which process, to what; then the record as it arrived. */
export function EndpointEventDrawer({
  row,
  onClose,
  onFilter,
  onProcessTree,
}: {
  row: StoredEvent | null;
  onClose: () => void;
  onFilter: (filter: { hostName?: string; userName?: string }) => void;
  onProcessTree: (row: StoredEvent) => void;
}) {
  const { t } = useTranslation();
  const { event, drawer } = useEventDetail<EndpointEventView>(row, useEndpointEvent(row?.id ?? null, row?.ts));
  const companyName = useCompanyName();
  const eventData = event ? Object.entries(event.eventData ?? {}) : [];

  return (
    <DetailDrawer
      {...drawer}
      onClose={onClose}
      title={
        event ? (
          <Group gap="sm">
            <Text fw={600}>
              {actionLabel(t, event.event.action) ??
                event.event.shipperAction ??
                t('investigation.endpoint.drawerTitle')}
            </Text>
            {event.event.outcome && <OutcomeBadge outcome={event.event.outcome} />}
          </Group>
        ) : null
      }
      testId="endpoint-drawer"
    >
      {row && event && (
        <>
          <Section title={t('investigation.endpoint.sections.event')}>
            <KeyValues
              items={[
                [t('investigation.common.time'), formatDate(row.ts, 'isoDateTimeSeconds')],
                [
                  t('investigation.endpoint.action'),
                  event.event.action ? <CodeName code={event.event.action} name={endpointActionLabel} /> : null,
                ],
                [t('investigation.endpoint.shipperAction'), event.event.shipperAction],
                [t('investigation.endpoint.category'), event.event.category.map(endpointCategoryLabel).join(', ')],
                [t('investigation.endpoint.code'), event.event.code],
                [t('investigation.endpoint.provider'), event.event.provider],
                [t('investigation.endpoint.channel'), event.event.channel],
                [t('investigation.endpoint.sourceFormat'), event.sourceFormat.toUpperCase()],
                [t('investigation.common.company'), companyName(row.companyId)],
              ]}
            />
          </Section>
          <Section title={t('investigation.endpoint.sections.host')}>
            <KeyValues
              items={[
                [
                  t('investigation.endpoint.host'),
                  event.host.name ? <Pivot value={event.host.name} onPivot={(v) => onFilter({ hostName: v })} /> : null,
                ],
                [t('investigation.endpoint.hostIps'), event.host.ip.join(', ')],
                [t('investigation.endpoint.os'), event.host.os],
                [
                  t('investigation.endpoint.user'),
                  event.user?.name ? (
                    <Pivot
                      value={event.user.name}
                      label={accountLabel(event.user) ?? ''}
                      onPivot={(v) => onFilter({ userName: v })}
                    />
                  ) : null,
                ],
                [t('investigation.endpoint.logonId'), mono(event.user?.logonId)],
                [t('investigation.endpoint.targetUser'), accountLabel(event.targetUser)],
                [t('investigation.endpoint.group'), accountLabel(event.group)],
              ]}
            />
          </Section>
          {event.process && (
            <Section title={t('investigation.endpoint.sections.process')} testId="section-process">
              <KeyValues
                items={[
                  [t('investigation.endpoint.process'), event.process.name],
                  ['PID', event.process.pid === null ? null : String(event.process.pid)],
                  [t('investigation.endpoint.executable'), mono(event.process.executable)],
                  [t('investigation.endpoint.commandLine'), mono(event.process.commandLine)],
                  [t('investigation.endpoint.processUser'), event.process.user],
                  [t('investigation.endpoint.integrityLevel'), event.process.integrityLevel],
                  [t('investigation.endpoint.originalFileName'), event.process.originalFileName],
                  [t('investigation.endpoint.entityId'), mono(event.process.entityId)],
                  ...hashItems(event.process.hash),
                  [
                    t('investigation.endpoint.parent'),
                    event.process.parent
                      ? `${event.process.parent.name ?? '—'} (PID ${event.process.parent.pid ?? '—'})`
                      : null,
                  ],
                  [t('investigation.endpoint.parentCommandLine'), mono(event.process.parent?.commandLine)],
                  [t('investigation.endpoint.parentUser'), event.process.parent?.user],
                ]}
              />
              {event.host.name && (
                <Button
                  mt="sm"
                  size="xs"
                  variant="light"
                  leftSection={<IconBinaryTree size={14} />}
                  onClick={() => onProcessTree(row)}
                  data-testid="drawer-process-tree"
                >
                  {t('investigation.endpoint.showTree')}
                </Button>
              )}
            </Section>
          )}
          {event.targetProcess && (
            <Section title={t('investigation.endpoint.sections.targetProcess')} testId="section-target-process">
              <KeyValues
                items={[
                  [t('investigation.endpoint.process'), event.targetProcess.name],
                  ['PID', event.targetProcess.pid === null ? null : String(event.targetProcess.pid)],
                  [t('investigation.endpoint.executable'), mono(event.targetProcess.executable)],
                  [t('investigation.endpoint.grantedAccess'), mono(event.targetProcess.grantedAccess)],
                  [t('investigation.endpoint.entityId'), mono(event.targetProcess.entityId)],
                ]}
              />
            </Section>
          )}
          {event.file && (
            <Section title={t('investigation.endpoint.sections.file')}>
              <KeyValues
                items={[
                  [t('investigation.endpoint.filePath'), mono(event.file.path)],
                  [t('investigation.endpoint.fileName'), event.file.name],
                  [t('investigation.endpoint.originalFileName'), event.file.originalFileName],
                  ...hashItems(event.file.hash),
                ]}
              />
            </Section>
          )}
          {event.network && (
            <Section title={t('investigation.endpoint.sections.network')}>
              <KeyValues
                items={[
                  [t('investigation.network.source'), event.network.srcIp],
                  [
                    t('investigation.network.srcPort'),
                    event.network.srcPort === null ? null : String(event.network.srcPort),
                  ],
                  [t('investigation.network.destination'), event.network.destIp],
                  [
                    t('investigation.network.destPort'),
                    event.network.destPort === null ? null : String(event.network.destPort),
                  ],
                  [t('investigation.network.proto'), event.network.protocol],
                ]}
              />
            </Section>
          )}
          {event.registry && (
            <Section title={t('investigation.endpoint.sections.registry')}>
              <KeyValues
                items={[
                  [t('investigation.endpoint.registryPath'), mono(event.registry.path)],
                  [t('investigation.endpoint.registryValue'), event.registry.value],
                  [t('investigation.endpoint.registryData'), mono(event.registry.data)],
                ]}
              />
            </Section>
          )}
          {event.dns && (
            <Section title={t('investigation.endpoint.sections.dns')}>
              <KeyValues
                items={[
                  [t('investigation.network.query'), event.dns.question],
                  [t('investigation.endpoint.answers'), event.dns.answers.join(', ')],
                ]}
              />
            </Section>
          )}
          {eventData.length > 0 && (
            <Section title={t('investigation.endpoint.sections.eventData')}>
              <KeyValues items={eventData.map(([key, value]) => [key, value === null ? '—' : mono(String(value))])} />
            </Section>
          )}
        </>
      )}
    </DetailDrawer>
  );
}

const outcomeColor: Record<string, string> = { success: 'green', failure: 'red', unknown: 'grey' };

export function OutcomeBadge({ outcome }: { outcome: string }) {
  const { t } = useTranslation();
  const known = outcome === 'success' || outcome === 'failure' || outcome === 'unknown';
  return (
    <span className={`vigil-pill vigil-pill--${outcomeColor[outcome] ?? 'grey'}`}>
      {known ? t(`investigation.endpoint.outcomes.${outcome}`) : outcome}
    </span>
  );
}
