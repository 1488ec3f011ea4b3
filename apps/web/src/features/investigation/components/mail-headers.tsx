import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { useCurrentUser } from '../../../lib/session';
import { mailOriginalUrl, type MailDetail, type MailMessageView } from '../api/investigation';
import { formatAddress } from '../lib/mail-view';
import { formatBytes } from '../lib/summaries';

/** The main headers, for messages stored before every header was kept. */
function selectedHeaders(message: MailMessageView): Array<[string, string]> {
  const format = (items: MailMessageView['to']) => items.map(formatAddress).join(', ');
  return [
    ['From', message.from ? formatAddress(message.from) : ''],
    ['To', format(message.to)],
    ['Cc', format(message.cc)],
    ['Reply-To', format(message.replyTo)],
    ['Subject', message.subject ?? ''],
    ['Date', message.date ?? ''],
    ['Message-ID', message.messageId ?? ''],
    ['Return-Path', message.headers.returnPath ?? ''],
    ['X-Mailer', message.headers.xMailer ?? ''],
    ...message.headers.authenticationResults.map((value): [string, string] => ['Authentication-Results', value]),
    ...message.headers.received.map((value): [string, string] => ['Received', value]),
  ].filter(([, value]) => value !== '') as Array<[string, string]>;
}

/** A link to download the original message, or why there is none. */
function OriginalMessage({ detail }: { detail: MailDetail }) {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const allowed = user !== null && (user.isSuperuser || user.privilegedSettings.mail_content === true);
  if (detail.original === null) {
    return (
      <Text size="sm" c="dimmed" data-testid="mail-original">
        {t('investigation.mail.originalNotKept')}
      </Text>
    );
  }
  if (!allowed) {
    return (
      <Text size="sm" c="dimmed" data-testid="mail-original">
        {t('investigation.mail.originalNeedsPrivilege')}
      </Text>
    );
  }
  return (
    <Group data-testid="mail-original">
      <Button
        size="xs"
        variant="light"
        component="a"
        href={mailOriginalUrl(detail.id)}
        download={`message-${detail.id}.eml`}
        leftSection={<IconDownload size={14} />}
      >
        {t('investigation.mail.downloadOriginal', { size: formatBytes(detail.original.size, i18n.language) })}
      </Button>
    </Group>
  );
}

/** Every header the message arrived with, in order (the main ones for older messages), and its original. */
export function MailHeaders({ detail, message }: { detail: MailDetail; message: MailMessageView }) {
  const { t } = useTranslation();
  const all = message.headerLines ?? [];
  const rows: Array<[string, string]> = all.length > 0 ? all.map((h) => [h.name, h.value]) : selectedHeaders(message);
  return (
    <Stack gap="sm">
      <OriginalMessage detail={detail} />
      <Text size="xs" c="dimmed">
        {all.length > 0
          ? t('investigation.mail.allHeaders', { count: all.length })
          : t('investigation.mail.selectedHeaders')}
      </Text>
      <Table fz="xs" verticalSpacing={4} data-testid="mail-headers" aria-label={t('investigation.mail.headers')}>
        <Table.Tbody>
          {rows.map(([name, value], index) => (
            <Table.Tr key={index}>
              <Table.Td w={190} c="dimmed" style={{ verticalAlign: 'top', overflowWrap: 'anywhere' }}>
                {name}
              </Table.Td>
              <Table.Td className="vigil-inv-mono" style={{ overflowWrap: 'anywhere' }}>
                {value}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
