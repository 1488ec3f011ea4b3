import { Button, Stack, ThemeIcon } from '@mantine/core';
import { IconCompass } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Typography } from '../ui/typography';

/** An address the console has no page for (or not yet). */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack className="vigil-empty-page" align="center" gap="sm" data-testid="not-found">
      <ThemeIcon size={56} radius="xl" variant="light" color="gray">
        <IconCompass size={28} />
      </ThemeIcon>
      <Typography variant="h2">{t('notFound.title')}</Typography>
      <Typography variant="body1" emphasis="medium" align="center" className="vigil-empty-page__text">
        {t('notFound.message')}
      </Typography>
      <Button component={Link} to="/" variant="light" mt="sm">
        {t('common.goHome')}
      </Button>
    </Stack>
  );
}
