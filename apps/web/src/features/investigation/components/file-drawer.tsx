import { Anchor, Button, Loader, Stack, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadError } from '../../../components/list';
import { DetailDrawer } from '../../../components/list-page';
import { formatDate } from '../../../lib/dates';
import { usePermission } from '../../../lib/permissions';
import { endpointEventsUrl, mailMessageUrl, withQuery } from '../../triage';
import { fileDownloadUrl, useFileDetail } from '../api/investigation';
import { formatBytes } from '../lib/summaries';
import { HashValue, KeyValues, Section, useCompanyName, VerdictBadge } from './shared';

/** Where one file was seen: companies, mails, endpoint events and files on the wire, each linked. */
export function FileDrawer({ sha256, onClose }: { sha256: string | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const detail = useFileDetail(sha256);
  const companyName = useCompanyName();
  const canDownload = usePermission({ action: 'download', subject: 'warehouse' });
  const file = detail.data;
  return (
    <DetailDrawer
      opened={sha256 !== null}
      onClose={onClose}
      title={<Text fw={600}>{file?.filename ?? t('investigation.files.drawerTitle')}</Text>}
      testId="file-drawer"
    >
      {detail.isLoading && <Loader size="sm" />}
      {detail.error !== null && detail.error !== undefined && (
        <LoadError message={t('investigation.common.detailFailed')} onRetry={() => void detail.refetch()} />
      )}
      {file && (
        <Stack gap="md">
          <Section title={t('investigation.files.file')}>
            <KeyValues
              items={[
                [
                  t('investigation.mail.verdict'),
                  <VerdictBadge verdict={file.verdict.verdict} severity={file.verdict.severity} />,
                ],
                ['SHA-256', <HashValue value={file.sha256} link={false} />],
                ['SHA-1', file.sha1 ? <HashValue value={file.sha1} link={false} /> : null],
                ['MD5', file.md5 ? <HashValue value={file.md5} link={false} /> : null],
                [t('investigation.files.type'), file.detectedType],
                [t('investigation.files.size'), file.size === null ? null : formatBytes(file.size, i18n.language)],
                [t('investigation.files.firstSeen'), formatDate(file.firstSeen)],
                [t('investigation.files.lastSeen'), formatDate(file.lastSeen)],
                [t('investigation.files.sightings'), String(file.sightings)],
                [
                  t('investigation.files.stored'),
                  file.stored ? t('investigation.files.storedYes') : t('investigation.files.storedNo'),
                ],
              ]}
            />
            {file.stored && canDownload && (
              <Button
                mt="sm"
                size="xs"
                variant="light"
                component="a"
                href={fileDownloadUrl(file.sha256)}
                leftSection={<IconDownload size={14} />}
              >
                {t('investigation.files.download')}
              </Button>
            )}
          </Section>
          <Section title={t('investigation.files.companies')}>
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
          </Section>
          {file.mails.length > 0 && (
            <Section title={t('investigation.files.inMail', { count: file.mails.length })} testId="file-mails">
              <Table fz="sm" verticalSpacing={4}>
                <Table.Tbody>
                  {file.mails.map((mail) => (
                    <Table.Tr key={mail.id}>
                      <Table.Td c="dimmed" w={140}>
                        {formatDate(mail.ts)}
                      </Table.Td>
                      <Table.Td>
                        <Anchor component={Link} to={mailMessageUrl(mail.id)} size="sm">
                          {mail.subject ?? t('investigation.mail.noSubject')}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {[mail.sender, mail.filename, companyName(mail.companyId)].filter(Boolean).join(' · ')}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Section>
          )}
          {file.endpointEvents.length > 0 && (
            <Section title={t('investigation.files.onEndpoints', { count: file.endpointEvents.length })}>
              <Table fz="sm" verticalSpacing={4}>
                <Table.Tbody>
                  {file.endpointEvents.map((event) => (
                    <Table.Tr key={event.id}>
                      <Table.Td c="dimmed" w={140}>
                        {formatDate(event.ts)}
                      </Table.Td>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={endpointEventsUrl({ host_name: event.hostName ?? undefined, hash: file.sha256 })}
                          size="sm"
                        >
                          {event.hostName ?? '—'}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {[event.action, event.processName, event.filePath, event.userName]
                            .filter(Boolean)
                            .join(' · ')}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Section>
          )}
          {file.networkEvents.length > 0 && (
            <Section title={t('investigation.files.onNetwork', { count: file.networkEvents.length })}>
              <Table fz="sm" verticalSpacing={4}>
                <Table.Tbody>
                  {file.networkEvents.map((event) => (
                    <Table.Tr key={event.id}>
                      <Table.Td c="dimmed" w={140}>
                        {formatDate(event.ts)}
                      </Table.Td>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={withQuery('/investigation/network', { file_sha256: file.sha256 })}
                          size="sm"
                          className="vigil-inv-mono"
                        >
                          {event.srcIp ?? '—'} → {event.destIp ?? '—'}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {[event.appProto, event.filename].filter(Boolean).join(' · ')}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Section>
          )}
        </Stack>
      )}
    </DetailDrawer>
  );
}
