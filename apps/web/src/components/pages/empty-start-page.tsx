import { Stack, ThemeIcon } from '@mantine/core';
import { IconLayoutDashboard } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Typography } from '../ui/typography';

/** The start page of a user who may open no page yet. */
export function EmptyStartPage() {
  const { t } = useTranslation();
  return (
    <Stack className="vigil-empty-page" align="center" gap="sm">
      <ThemeIcon size={56} radius="xl" variant="light">
        <IconLayoutDashboard size={28} />
      </ThemeIcon>
      <Typography variant="h2">{t('start.emptyTitle')}</Typography>
      <Typography variant="body1" emphasis="medium" align="center" className="vigil-empty-page__text">
        {t('start.emptyMessage')}
      </Typography>
    </Stack>
  );
}
