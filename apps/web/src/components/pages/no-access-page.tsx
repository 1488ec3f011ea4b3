import { Button, Stack, ThemeIcon } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Typography } from '../ui/typography';

/** What a direct link to a page the user may not open shows (spec §6). */
export function NoAccessPage() {
  const { t } = useTranslation();
  return (
    <Stack className="vigil-empty-page" align="center" gap="sm" data-testid="no-access">
      <ThemeIcon size={56} radius="xl" variant="light" color="red">
        <IconLock size={28} />
      </ThemeIcon>
      <Typography variant="h2">{t('noAccess.title')}</Typography>
      <Typography variant="body1" emphasis="medium" align="center" className="vigil-empty-page__text">
        {t('noAccess.message')}
      </Typography>
      <Button component={Link} to="/" variant="light" mt="sm">
        {t('common.goHome')}
      </Button>
    </Stack>
  );
}
