import { Anchor, Loader, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import { LoadError } from '../../../components/list';
import { EventDrawer, type EventSection } from '../../../components/event-drawer';
import { DetailSection } from '../../../components/list-page';
import { formatDate } from '../../../lib/dates';
import { usePermission } from '../../../lib/permissions';
import { endpointEventsUrl, mailMessageUrl, withQuery } from '../../triage';
import { fileDownloadUrl, useFileDetail } from '../api/investigation';
import { endpointActionLabel } from '../lib/codes';
import { formatBytes } from '../lib/summaries';
import { FileYaraSection } from './file-yara-section';
import { hashFields, useCompanyName, VerdictBadge } from './shared';

/** Where one file was seen: companies, mails, endpoint events and files on the wire, each linked. */
export function FileDrawer({ sha256, onClose }: { sha256: string | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const detail = useFileDetail(sha256);
  const companyName = useCompanyName();
  const canDownload = usePermission({ action: 'download', subject: 'warehouse' });
  const file = detail.data;
  const sections: EventSection[] | null = !file
    ? null
    : [
        {
          id: 'file',
          title: t('investigation.files.file'),
          fields: [
            [
              t('investigation.mail.verdict'),
              <VerdictBadge verdict={file.verdict.verdict} severity={file.verdict.severity} />,
            ],
            ...hashFields(file, false),
            [t('investigation.files.type'), file.detectedType],
            [t('investigation.files.size'), file.size === null ? null : formatBytes(file.size, i18n.language)],
            [t('investigation.files.firstSeen'), formatDate(file.firstSeen)],
            [t('investigation.files.lastSeen'), formatDate(file.lastSeen)],
            [t('investigation.files.sightings'), String(file.sightings)],
            [
              t('investigation.files.stored'),
              file.stored ? t('investigation.files.storedYes') : t('investigation.files.storedNo'),
            ],
          ],
          pivots: [
            file.stored &&
              canDownload && {
                label: t('investigation.files.download'),
                icon: <IconDownload size={14} />,
                href: fileDownloadUrl(file.sha256),
              },
          ],
        },
        {
          id: 'companies',
          title: t('investigation.files.companies'),
          fields: [],
          more: (
            <Table fz="sm" verticalSpacing={4}>
              <Table.Tbody>
                {file.companies.map((company) => (
                  <Table.Tr key={company.companyId}>
                    <Table.Td>{company.companyName}</Table.Td>
                    <Table.Td>
                      {company.sources.map((source) => t(`investigation.files.sources.${source as 'mail'}`)).join(', ')}
                    </Table.Td>
                    <Table.Td>{t('investigation.files.times', { count: company.sightings })}</Table.Td>
                    <Table.Td c="dimmed">{formatDate(company.lastSeen)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ),
        },
        file.stored ? (
          <FileYaraSection
            key="yara"
            sha256={file.sha256}
            companyName={companyName}
            manyCompanies={file.companies.length > 1}
          />
        ) : null,
        <Sightings
          key="mails"
          title={t('investigation.files.inMail', { count: file.mails.length })}
          testId="file-mails"
          rows={file.mails.map((mail) => ({
            id: mail.id,
            ts: mail.ts,
            to: mailMessageUrl(mail.id),
            label: mail.subject ?? t('investigation.mail.noSubject'),
            details: [mail.sender, mail.filename, companyName(mail.companyId)],
          }))}
        />,
        <Sightings
          key="endpoints"
          title={t('investigation.files.onEndpoints', { count: file.endpointEvents.length })}
          rows={file.endpointEvents.map((event) => ({
            id: event.id,
            ts: event.ts,
            to: endpointEventsUrl({ host_name: event.hostName ?? undefined, hash: file.sha256 }),
            label: event.hostName ?? '—',
            details: [
              event.action ? endpointActionLabel(event.action) : null,
              event.processName,
              event.filePath,
              event.userName,
            ],
          }))}
        />,
        <Sightings
          key="network"
          title={t('investigation.files.onNetwork', { count: file.networkEvents.length })}
          rows={file.networkEvents.map((event) => ({
            id: event.id,
            ts: event.ts,
            to: withQuery('/investigation/network', { file_sha256: file.sha256 }),
            label: `${event.srcIp ?? '—'} → ${event.destIp ?? '—'}`,
            mono: true,
            details: [event.appProto, event.filename],
          }))}
        />,
      ];
  return (
    <EventDrawer
      opened={sha256 !== null}
      onClose={onClose}
      heading={{ title: file?.filename ?? t('investigation.files.drawerTitle') }}
      sections={sections}
      testId="file-drawer"
    >
      {detail.isLoading && <Loader size="sm" />}
      {detail.error !== null && detail.error !== undefined && (
        <LoadError message={t('investigation.common.detailFailed')} onRetry={() => void detail.refetch()} />
      )}
    </EventDrawer>
  );
}

interface Sighting {
  id: number;
  ts: string;
  /** Where the sighting itself is shown, and the link's text. */
  to: string;
  label: string;
  /** The label is an address, set in the monospace face. */
  mono?: boolean;
  /** Facts shown under the link; empty ones are left out. */
  details: (string | null | undefined)[];
}

/** One kind of place the file was seen: a dated, linked row per sighting; nothing when there are none. */
function Sightings({ title, testId, rows }: { title: string; testId?: string; rows: Sighting[] }) {
  if (rows.length === 0) return null;
  return (
    <DetailSection title={title} testId={testId}>
      <Table fz="sm" verticalSpacing={4}>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td c="dimmed" w={140}>
                {formatDate(row.ts)}
              </Table.Td>
              <Table.Td>
                <Anchor
                  component={Link}
                  to={row.to}
                  size="sm"
                  className={row.mono === true ? 'vigil-inv-mono' : undefined}
                >
                  {row.label}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {row.details.filter(Boolean).join(' · ')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </DetailSection>
  );
}
