import { Grid, Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One block of a settings page: what it is about on the left, its controls on the right. */
export function SettingsSection({
  title,
  description,
  children,
  testId,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Paper p="lg" data-testid={testId}>
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Title order={3} className="vigil-section__title">
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed" mt={4}>
              {description}
            </Text>
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>{children}</Grid.Col>
      </Grid>
    </Paper>
  );
}
