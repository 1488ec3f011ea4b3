import { Button, Stack, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link } from '../../lib/router';
import { Typography } from '../ui/typography';

/** A page that only says something: an icon, a title, a message and, where useful, the way home. */
export function MessagePage({
  icon,
  color,
  title,
  message,
  homeLink = false,
  testId,
}: {
  icon: ReactNode;
  color?: string;
  title: string;
  message: string;
  homeLink?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack className="vigil-empty-page" align="center" gap="sm" data-testid={testId}>
      <ThemeIcon size={56} radius="xl" variant="light" color={color}>
        {icon}
      </ThemeIcon>
      <Typography variant="h2">{title}</Typography>
      <Typography variant="body1" emphasis="medium" align="center" className="vigil-empty-page__text">
        {message}
      </Typography>
      {homeLink && (
        <Button component={Link} to="/" variant="light" mt="sm">
          {t('common.goHome')}
        </Button>
      )}
    </Stack>
  );
}

/**
 * What shows in place of the page a link asked for: why it is not there, in the texts `<topic>.title` and
 * `<topic>.message` (with `values` put in), and the way home.
 */
export function InsteadOfPage({
  topic,
  values,
  ...page
}: {
  topic: 'noAccess' | 'notFound' | 'unavailable';
  values?: Record<string, string>;
  icon: ReactNode;
  color: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return <MessagePage {...page} title={t(`${topic}.title`)} message={t(`${topic}.message`, values)} homeLink />;
}
