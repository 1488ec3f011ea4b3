import { Button, Group, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { FormError, fieldError } from '../../../components/form';
import { browserTimeZone } from '../../../lib/dates';
import { languages, type Language } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { changeLocale, changeTheme, setCurrentUser, useSignedInUser } from '../../../lib/session';
import { useVigilTheme } from '../../../lib/theme';
import { updateProfile } from '../api/account';
import { SettingsSection } from './settings-section';
import { offsetOf, timeZoneOptions } from './time-zones';

const BROWSER_ZONE = '';

/** Names, phone and time zone, saved together; what was typed stays when the server refuses it. */
export function PersonalSection() {
  const { t } = useTranslation();
  const user = useSignedInUser();
  const [form, setForm] = useState({
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone,
    timeZone: user.timeZone ?? BROWSER_ZONE,
  });
  const zones = useMemo(() => {
    const browser = browserTimeZone();
    return [
      { value: BROWSER_ZONE, label: t('profile.browserZone', { zone: `${browser} (${offsetOf(browser)})` }) },
      ...timeZoneOptions(),
    ];
  }, [t]);
  const save = useMutation({
    mutationFn: () =>
      updateProfile({
        firstName: form.firstName,
        lastName: form.lastName,
        phone: form.phone,
        timeZone: form.timeZone === BROWSER_ZONE ? null : form.timeZone,
      }),
    onSuccess: (answer) => {
      setCurrentUser(answer);
      notify({ type: 'success', message: t('profile.saved') });
    },
  });
  const set = (field: keyof typeof form) => (event: { currentTarget: { value: string } }) => {
    // Read now: the event's target is gone by the time the state updater runs.
    const value = event.currentTarget.value;
    setForm((previous) => ({ ...previous, [field]: value }));
  };
  const changed =
    form.firstName !== user.firstName ||
    form.lastName !== user.lastName ||
    form.phone !== user.phone ||
    form.timeZone !== (user.timeZone ?? BROWSER_ZONE);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <SettingsSection title={t('profile.personal')} description={t('profile.personalHint')} testId="profile-personal">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label={t('users.firstName')}
              value={form.firstName}
              onChange={set('firstName')}
              maxLength={150}
              error={fieldError(save.error, 'firstName')}
              autoComplete="given-name"
            />
            <TextInput
              label={t('users.lastName')}
              value={form.lastName}
              onChange={set('lastName')}
              maxLength={150}
              error={fieldError(save.error, 'lastName')}
              autoComplete="family-name"
            />
            <TextInput
              label={t('users.phone')}
              value={form.phone}
              onChange={set('phone')}
              maxLength={40}
              type="tel"
              placeholder="+7 900 000-00-00"
              error={fieldError(save.error, 'phone')}
              autoComplete="tel"
            />
            <Select
              label={t('profile.timeZone')}
              data={zones}
              value={form.timeZone}
              onChange={(value) => setForm((previous) => ({ ...previous, timeZone: value ?? BROWSER_ZONE }))}
              searchable
              allowDeselect={false}
              nothingFoundMessage={t('common.nothingFound')}
              error={fieldError(save.error, 'timeZone')}
              data-testid="profile-time-zone"
              comboboxProps={{ withinPortal: true }}
            />
          </SimpleGrid>
          <FormError error={save.error} shownFields={['firstName', 'lastName', 'phone', 'timeZone']} />
          <Group justify="flex-end" gap="sm">
            <Text size="xs" c="dimmed">
              {user.username}
              {user.email ? ` · ${user.email}` : ''}
            </Text>
            <Button type="submit" loading={save.isPending} disabled={!changed} data-testid="profile-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </SettingsSection>
  );
}

/** Theme and language take effect at once and are kept with the user. */
export function AppearanceSection() {
  const { t, i18n } = useTranslation();
  const { theme } = useVigilTheme();
  return (
    <SettingsSection title={t('profile.appearance')} description={t('profile.appearanceHint')}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <div>
          <Text size="sm" fw={500} mb={6}>
            {t('profile.theme')}
          </Text>
          <SegmentedControl
            fullWidth
            value={theme}
            onChange={(value) => void changeTheme(value)}
            data={[
              { value: 'dark', label: t('profile.themeDark') },
              { value: 'light', label: t('profile.themeLight') },
            ]}
            data-testid="profile-theme"
          />
        </div>
        <div>
          <Text size="sm" fw={500} mb={6}>
            {t('profile.language')}
          </Text>
          <SegmentedControl
            fullWidth
            value={i18n.language}
            onChange={(value) => void changeLocale(value as Language)}
            data={languages.map((language) => ({ value: language, label: t(`languages.${language}`) }))}
            data-testid="profile-language"
          />
        </div>
      </SimpleGrid>
    </SettingsSection>
  );
}
