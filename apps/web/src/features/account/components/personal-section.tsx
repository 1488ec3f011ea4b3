import { Button, Group, SegmentedControl, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { FormError, FormFrame, fieldError, useFormValues } from '../../../components/form';
import { browserTimeZone } from '../../../lib/dates';
import { languages, type Language } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { changeLocale, changeTheme, setCurrentUser, useSignedInUser } from '../../../lib/session';
import { useVigilTheme } from '../../../lib/theme';
import { updateProfile } from '../api/account';
import { SettingsSection } from './settings-section';
import { offsetOf, timeZoneOptions } from './time-zones';

const BROWSER_ZONE = '';

/** The user's names, each with the part of a name the browser may fill it with. */
const nameFields = [
  { field: 'firstName', autoComplete: 'given-name' },
  { field: 'lastName', autoComplete: 'family-name' },
] as const;

/** Names, phone and time zone, saved together; what was typed stays when the server refuses it. */
export function PersonalSection() {
  const { t } = useTranslation();
  const user = useSignedInUser();
  const {
    values: form,
    setField,
    text,
  } = useFormValues({
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
  const changed =
    form.firstName !== user.firstName ||
    form.lastName !== user.lastName ||
    form.phone !== user.phone ||
    form.timeZone !== (user.timeZone ?? BROWSER_ZONE);

  return (
    <SettingsSection topic="personal" testId="profile-personal">
      <FormFrame onSubmit={() => save.mutate()}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {nameFields.map(({ field, autoComplete }) => (
            <TextInput
              key={field}
              label={t(`users.${field}`)}
              value={form[field]}
              onChange={text(field)}
              maxLength={150}
              error={fieldError(save.error, field)}
              autoComplete={autoComplete}
            />
          ))}
          <TextInput
            label={t('users.phone')}
            value={form.phone}
            onChange={text('phone')}
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
            onChange={(value) => setField('timeZone', value ?? BROWSER_ZONE)}
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
      </FormFrame>
    </SettingsSection>
  );
}

/** Theme and language take effect at once and are kept with the user. */
export function AppearanceSection() {
  const { t, i18n } = useTranslation();
  const { theme } = useVigilTheme();
  return (
    <SettingsSection topic="appearance">
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
