import { Alert, Avatar, Badge, Group, Stack, Text, Title } from '@mantine/core';
import { IconUserShield } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { displayName, useSignedInUser } from '../../../lib/session';
import { ApiTokenSection } from './api-token-section';
import { NotificationsSection } from './notifications-section';
import { PasswordSection } from './password-section';
import { AppearanceSection, PersonalSection } from './personal-section';
import { TwoFactorSection } from './two-factor-section';

/** The signed-in user's own page: who they are, how the console looks, what reaches them, and security. */
export default function ProfilePage() {
  const { t } = useTranslation();
  const user = useSignedInUser();
  const name = displayName(user);
  // Someone acting as this user may not change its credentials (the server refuses it too).
  const locked = user.impersonator !== null;
  const company = user.companies.find((item) => item.id === user.companyId);
  return (
    <Stack gap="lg" className="vigil-settings-page">
      <Group gap="md" wrap="nowrap">
        <Avatar size={56} radius="xl" color="vigil" variant="filled">
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
        <div>
          <Title order={1} className="vigil-page__title" data-testid="profile-name">
            {name}
          </Title>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('profile.subtitle', { username: user.username })}
            </Text>
            {company && (
              <Badge variant="default" radius="sm" tt="none">
                {company.name}
              </Badge>
            )}
            {user.isSuperuser && (
              <Badge color="grape" variant="light" radius="sm">
                {t('users.superuser')}
              </Badge>
            )}
          </Group>
        </div>
      </Group>
      <PersonalSection />
      <AppearanceSection />
      <NotificationsSection />
      {locked && (
        <Alert color="orange" variant="light" icon={<IconUserShield size={18} />}>
          {t('profile.impersonationLocked')}
        </Alert>
      )}
      <PasswordSection locked={locked} />
      <TwoFactorSection locked={locked} />
      <ApiTokenSection locked={locked} />
    </Stack>
  );
}
