import './investigation.css';
import {
  Alert,
  Anchor,
  Badge,
  Collapse,
  Group,
  Loader,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconChevronDown, IconChevronRight, IconScissors } from '@tabler/icons-react';
import { MAX_EVENT_STRING } from '@vigil/contract/client';
import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import { LoadError } from '../../../components/list';
import { JsonView } from '../../../components/ui/json-view';
import { formatDate } from '../../../lib/dates';
import { mailUrl, networkEventsUrl } from '../../triage';
import { useMailMessage, type MailDetail, type MailMessageView } from '../api/investigation';
import { attachmentsWithUrl, type MailAddressView } from '../lib/mail-view';
import { formatBytes } from '../lib/summaries';
import { EmployeeLink } from '../../employees/components/employee-link';
import { MailHeaders } from './mail-headers';
import { AuthPill, MailHtmlFrame } from './mail-parts';
import { HashValue, KeyValues, Section, useCompanyName, VerdictBadge } from './shared';
import { useRouteId } from '../../../lib/route-id';

/** A section listing what a message holds (links, attachments), or saying it holds none. */
function ListedSection({
  title,
  testId,
  none,
  children,
}: {
  title: string;
  testId: string;
  /** The text shown instead of the list when there is nothing in it; false when there is. */
  none: string | false;
  children: ReactNode;
}) {
  return (
    <Section title={title} testId={testId}>
      {none === false ? (
        children
      ) : (
        <Text c="dimmed" size="sm">
          {none}
        </Text>
      )}
    </Section>
  );
}

function AddressList({ items, companyId }: { items: MailAddressView[]; companyId: number }) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <Group gap={6} wrap="wrap">
      {items.map((item, index) =>
        item.address === null ? (
          // A display name without an address (`DeBank <>`): the name is all the sender gave.
          <Text key={`name-${index}`} size="sm" data-testid="address-without-mailbox">
            {item.name}{' '}
            <Text span size="xs" c="dimmed">
              {t('investigation.mail.noAddress')}
            </Text>
          </Text>
        ) : (
          <span key={`${item.address}-${index}`} className="vigil-inv-with-asset">
            <Anchor component={Link} to={mailUrl({ search: item.address })} size="sm">
              {item.name ? `${item.name} <${item.address}>` : item.address}
            </Anchor>
            <EmployeeLink companyId={companyId} email={item.address} />
          </span>
        ),
      )}
    </Group>
  );
}

/** Says that a body is cut where it is shown. */
function TruncatedNotice({ kind }: { kind: 'text' | 'html' }) {
  const { t, i18n } = useTranslation();
  const limit = MAX_EVENT_STRING.toLocaleString(i18n.language);
  return (
    <Alert variant="light" color="yellow" icon={<IconScissors size={16} />} mb="sm" data-testid="body-truncated">
      {kind === 'text'
        ? t('investigation.mail.textTruncated', { limit })
        : t('investigation.mail.htmlTruncated', { limit })}
    </Alert>
  );
}

/** The Authentication-Results headers, each check with its properties. */
function AuthenticationDetails({ detail }: { detail: MailDetail }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { authentication } = detail;
  return (
    <Section title={t('investigation.mail.authentication')} testId="mail-auth">
      <Group gap="xs">
        <AuthPill method="spf" result={authentication.spf} />
        <AuthPill method="dkim" result={authentication.dkim} />
        <AuthPill method="dmarc" result={authentication.dmarc} />
        {authentication.arc !== null && <AuthPill method="arc" result={authentication.arc} />}
        {authentication.compauth !== null && <AuthPill method="compauth" result={authentication.compauth} />}
      </Group>
      {authentication.headers.length > 0 && (
        <>
          <UnstyledButton mt="sm" onClick={() => setOpen((value) => !value)} aria-expanded={open}>
            <Group gap={4}>
              {open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
              <Text size="sm" c="dimmed">
                {t('investigation.mail.authDetails', { count: authentication.headers.length })}
              </Text>
            </Group>
          </UnstyledButton>
          <Collapse expanded={open}>
            <Stack gap="sm" mt="sm">
              {authentication.headers.map((header, index) => (
                <div key={index}>
                  <Text size="xs" c="dimmed" mb={4}>
                    {header.authservId ?? t('investigation.mail.unknownServer')}
                  </Text>
                  <Table fz="xs" withRowBorders={false} verticalSpacing={2}>
                    <Table.Tbody>
                      {header.results.map((result, i) => (
                        <Table.Tr key={i}>
                          <Table.Td w={150}>
                            <AuthPill method={result.method} result={result.result} />
                          </Table.Td>
                          <Table.Td className="vigil-inv-mono">
                            {Object.entries(result.properties)
                              .map(([key, value]) => `${key}=${value}`)
                              .join('  ')}
                            {result.reason && <Text span size="xs" c="dimmed">{`  (${result.reason})`}</Text>}
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </div>
              ))}
            </Stack>
          </Collapse>
        </>
      )}
    </Section>
  );
}

/** Investigation → Emails → one message: who sent it, whether it authenticated, its body (safely), links and attachments. */
export default function MailMessagePage() {
  const { t, i18n } = useTranslation();
  const { id, valid } = useRouteId();
  const query = useMailMessage(valid ? id : null);
  const companyName = useCompanyName();
  const detail = query.data;
  const message = detail?.event as MailMessageView | undefined;
  const [tab, setTab] = useState<string | null>(null);

  const back = (
    <Anchor component={Link} to="/investigation/emails" size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} />
        {t('investigation.mail.back')}
      </Group>
    </Anchor>
  );

  if (!valid || (query.error && !detail)) {
    return (
      <Stack gap="md">
        {back}
        <LoadError message={t('investigation.mail.loadFailed')} onRetry={() => void query.refetch()} />
      </Stack>
    );
  }
  if (!detail || !message) {
    return (
      <Group justify="center" p="xl">
        <Loader size="sm" />
      </Group>
    );
  }

  const currentTab = tab ?? (message.html ? 'html' : 'text');

  return (
    <Stack gap="md" className="vigil-list-page" data-testid="mail-message">
      {back}
      <Group justify="space-between" align="flex-start" gap="md">
        <div style={{ minWidth: 0 }}>
          <Title order={1} className="vigil-page__title" style={{ overflowWrap: 'anywhere' }}>
            {message.subject ?? t('investigation.mail.noSubject')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('investigation.mail.receivedAt', { time: formatDate(detail.ts, 'isoDateTimeSeconds') })}
            {' · '}
            {companyName(detail.companyId)}
          </Text>
        </div>
        <VerdictBadge verdict={detail.verdict.verdict} severity={detail.verdict.severity} />
      </Group>

      <Section title={t('investigation.mail.envelope')}>
        <KeyValues
          items={[
            [
              t('investigation.mail.from'),
              message.from ? <AddressList items={[message.from]} companyId={detail.companyId} /> : null,
            ],
            [
              t('investigation.mail.replyTo'),
              message.replyTo.length ? <AddressList items={message.replyTo} companyId={detail.companyId} /> : null,
            ],
            [
              t('investigation.mail.to'),
              message.to.length ? <AddressList items={message.to} companyId={detail.companyId} /> : null,
            ],
            [
              t('investigation.mail.cc'),
              message.cc.length ? <AddressList items={message.cc} companyId={detail.companyId} /> : null,
            ],
            [t('investigation.mail.sent'), message.date ? formatDate(message.date, 'isoDateTimeSeconds') : null],
            [t('investigation.mail.returnPath'), message.headers.returnPath],
            [t('investigation.mail.size'), formatBytes(message.size, i18n.language)],
          ]}
        />
      </Section>

      <AuthenticationDetails detail={detail} />

      <Tabs value={currentTab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="html" disabled={!message.html}>
            {t('investigation.mail.htmlTab')}
          </Tabs.Tab>
          <Tabs.Tab value="text">{t('investigation.mail.textTab')}</Tabs.Tab>
          <Tabs.Tab value="headers">{t('investigation.mail.headers')}</Tabs.Tab>
          <Tabs.Tab value="raw">{t('investigation.common.raw')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="html" pt="md">
          {message.htmlTruncated === true && <TruncatedNotice kind="html" />}
          {message.html && <MailHtmlFrame html={message.html} title={t('investigation.mail.htmlTitle')} />}
        </Tabs.Panel>
        <Tabs.Panel value="text" pt="md">
          {message.textTruncated === true && <TruncatedNotice kind="text" />}
          {message.text ? (
            <pre className="vigil-mail-text" data-testid="mail-text">
              {message.text}
            </pre>
          ) : (
            <Text c="dimmed" size="sm">
              {t('investigation.mail.noText')}
            </Text>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="headers" pt="md">
          <MailHeaders detail={detail} message={message} />
        </Tabs.Panel>
        <Tabs.Panel value="raw" pt="md">
          <JsonView value={detail.raw} maxHeight={640} testId="raw-json" />
        </Tabs.Panel>
      </Tabs>

      <ListedSection
        title={t('investigation.mail.urls', { count: detail.urls.length })}
        testId="mail-urls"
        none={detail.urls.length === 0 && t('investigation.mail.noUrls')}
      >
        <Table fz="sm" verticalSpacing={6}>
          <Table.Tbody>
            {detail.urls.map((url) => (
              <Table.Tr key={url.url}>
                <Table.Td className="vigil-inv-mono" style={{ overflowWrap: 'anywhere' }}>
                  {url.url}
                  {attachmentsWithUrl(url.url, detail.attachments, t('investigation.files.unnamed')).map((name) => (
                    <Text key={name} size="xs" c="dimmed">
                      {t('investigation.mail.inAttachment', { name })}
                    </Text>
                  ))}
                </Table.Td>
                <Table.Td w={150}>
                  {url.host && (
                    <Anchor component={Link} to={networkEventsUrl({ search: url.host })} size="xs">
                      {t('investigation.mail.seenOnNetwork')}
                    </Anchor>
                  )}
                </Table.Td>
                <Table.Td w={150}>
                  <VerdictBadge verdict={url.verdict.verdict} severity={url.verdict.severity} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ListedSection>

      <ListedSection
        title={t('investigation.mail.attachmentsCount', { count: detail.attachments.length })}
        testId="mail-attachments"
        none={detail.attachments.length === 0 && t('investigation.mail.noAttachments')}
      >
        <Table fz="sm" verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('investigation.files.name')}</Table.Th>
              <Table.Th>{t('investigation.files.type')}</Table.Th>
              <Table.Th>{t('investigation.files.size')}</Table.Th>
              <Table.Th>SHA-256</Table.Th>
              <Table.Th>{t('investigation.mail.verdict')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {detail.attachments.map((attachment) => (
              <Table.Tr key={attachment.id} data-testid="attachment-row">
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  {attachment.filename ?? t('investigation.files.unnamed')}
                  {attachment.inline && (
                    <Badge ml={6} size="xs" variant="light" color="gray">
                      {t('investigation.mail.inline')}
                    </Badge>
                  )}
                  {attachment.doubleExtension && (
                    <Tooltip label={t('investigation.mail.doubleExtensionHint')}>
                      <Badge
                        ml={6}
                        size="xs"
                        variant="filled"
                        color="red"
                        leftSection={<IconAlertTriangle size={10} />}
                        data-testid="double-extension"
                      >
                        {t('investigation.mail.doubleExtension')}
                      </Badge>
                    </Tooltip>
                  )}
                  <Text size="xs" c="dimmed">
                    {attachment.contentType}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {attachment.detectedType}
                  {attachment.urls.length > 0 && (
                    <Text size="xs" c="dimmed">
                      {t('investigation.mail.linksInside', { count: attachment.urls.length })}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatBytes(attachment.size, i18n.language)}</Table.Td>
                <Table.Td maw={360}>
                  <HashValue value={attachment.sha256} />
                </Table.Td>
                <Table.Td>
                  <VerdictBadge verdict={attachment.verdict.verdict} severity={attachment.verdict.severity} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ListedSection>
    </Stack>
  );
}
