import { Grid, Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';

/**
 * The blocks of the profile page; each is titled `profile.<topic>` and described by `profile.<topic>Hint`,
 * but for the password, whose description says when it was last changed.
 */
export type SettingsTopic = 'personal' | 'appearance' | 'password' | 'twoFactor' | 'notifications' | 'apiToken';

/** One block of a settings page: what it is about on the left, its controls on the right. */
export function SettingsSection({
  topic,
  description,
  children,
  testId,
}: {
  topic: SettingsTopic;
  /** Said instead of the topic's own description. */
  description?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Paper p="lg" data-testid={testId}>
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Title order={3} className="vigil-section__title">
            {t(`profile.${topic}`)}
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            {description ?? (topic === 'password' ? null : t(`profile.${topic}Hint`))}
          </Text>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>{children}</Grid.Col>
      </Grid>
    </Paper>
  );
}
