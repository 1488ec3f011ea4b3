import { Alert, Stack } from '@mantine/core';
import { IconPhotoOff } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { hasRemoteContent, mailSrcdoc } from '../lib/mail-frame';

const authColor: Record<string, string> = {
  pass: 'green',
  fail: 'red',
  softfail: 'orange',
  hardfail: 'red',
  neutral: 'grey',
  none: 'grey',
  policy: 'yellow',
  temperror: 'yellow',
  permerror: 'yellow',
};

/** `SPF pass`, `DKIM fail`… as a coloured pill; `—` when the message carries no result. */
export function AuthPill({ method, result }: { method: string; result: string | null }) {
  const { t } = useTranslation();
  const value = result?.toLowerCase() ?? null;
  return (
    <span
      className={`vigil-pill vigil-pill--${value ? (authColor[value] ?? 'grey') : 'grey'}`}
      data-auth={method}
      data-result={value ?? 'absent'}
      title={value ? undefined : t('investigation.mail.noResult')}
    >
      {method.toUpperCase()} {value ?? '—'}
    </span>
  );
}

/**
 * The HTML body in a frame that can do nothing: an empty `sandbox` (no scripts, no same origin, no forms,
 * no popups, no top navigation) and a Content-Security-Policy that loads nothing from the network.
 */
export function MailHtmlFrame({ html, title }: { html: string; title: string }) {
  const { t } = useTranslation();
  const srcdoc = useMemo(() => mailSrcdoc(html), [html]);
  const remote = useMemo(() => hasRemoteContent(html), [html]);
  return (
    <Stack gap="sm">
      {remote && (
        <Alert variant="light" color="blue" icon={<IconPhotoOff size={16} />} data-testid="remote-blocked">
          {t('investigation.mail.remoteBlocked')}
        </Alert>
      )}
      <iframe
        className="vigil-mail-frame"
        title={title}
        sandbox=""
        referrerPolicy="no-referrer"
        srcDoc={srcdoc}
        style={{ height: 'min(52vh, 560px)', resize: 'vertical' }}
        data-testid="mail-html"
      />
    </Stack>
  );
}
