import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { FormError, fieldError } from '../../../components/form';
import { LoadError } from '../../../components/list';
import { CopyField } from '../../../components/ui/copy-field';
import { formatDate } from '../../../lib/dates';
import { useFetchState } from '../../../lib/fetch-state';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import {
  companyKeys,
  fetchCompanyRoles,
  fetchSsoSettings,
  saveSsoSettings,
  type Company,
  type SsoSettings,
} from '../api/companies';

const shownFields = [
  'issuer',
  'clientId',
  'clientSecret',
  'scopes',
  'enabled',
  'jitCreate',
  'defaultRoleId',
  'passwordChangeUrl',
];

function SsoForm({ company, settings, editable }: { company: Company; settings: SsoSettings; editable: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mayReadRoles = usePermission({ action: 'view', subject: 'users' });
  const roles = useQuery({
    queryKey: companyKeys.roles(company.id),
    queryFn: ({ signal }) => fetchCompanyRoles(company.id, signal),
    enabled: mayReadRoles,
  });
  const [form, setForm] = useState({
    enabled: settings.enabled,
    issuer: settings.issuer ?? '',
    clientId: settings.clientId ?? '',
    clientSecret: '',
    removeSecret: false,
    scopes: settings.scopes,
    jitCreate: settings.jitCreate,
    defaultRoleId: settings.defaultRoleId,
    passwordChangeUrl: settings.passwordChangeUrl ?? '',
  });
  const save = useMutation({
    mutationFn: () =>
      saveSsoSettings(company.id, {
        enabled: form.enabled,
        issuer: form.issuer.trim(),
        clientId: form.clientId.trim(),
        // Write-only: left out it is kept, an empty text removes it.
        ...(form.removeSecret ? { clientSecret: '' } : form.clientSecret ? { clientSecret: form.clientSecret } : {}),
        scopes: form.scopes,
        jitCreate: form.jitCreate,
        defaultRoleId: form.defaultRoleId,
        passwordChangeUrl: form.passwordChangeUrl.trim() === '' ? null : form.passwordChangeUrl.trim(),
      }),
    onSuccess: async (answer) => {
      queryClient.setQueryData(companyKeys.sso(company.id), answer);
      setForm((previous) => ({ ...previous, clientSecret: '', removeSecret: false }));
      notify({ type: 'success', message: t('companies.sso.saved') });
    },
  });
  const set = <K extends keyof typeof form>(field: K, value: (typeof form)[K]) =>
    setForm((previous) => ({ ...previous, [field]: value }));
  const text = (field: 'issuer' | 'clientId' | 'scopes' | 'passwordChangeUrl') => ({
    value: form[field],
    onChange: (event: { currentTarget: { value: string } }) => set(field, event.currentTarget.value),
    error: fieldError(save.error, field),
    disabled: !editable,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const secretState = settings.clientSecretSet ? t('companies.sso.secretStored') : t('companies.sso.secretNone');

  return (
    <form onSubmit={submit} noValidate data-testid="sso-form">
      <Stack gap="md">
        <Group justify="space-between">
          <Switch
            label={t('companies.sso.enabled')}
            checked={form.enabled}
            onChange={(event) => set('enabled', event.currentTarget.checked)}
            disabled={!editable}
            data-testid="sso-enabled"
          />
          <Badge color={settings.configured ? (settings.enabled ? 'teal' : 'gray') : 'yellow'} variant="light">
            {settings.configured
              ? settings.enabled
                ? t('companies.sso.stateOn')
                : t('companies.sso.stateOff')
              : t('companies.sso.stateNew')}
          </Badge>
        </Group>
        <CopyField
          label={t('companies.sso.redirectUri')}
          description={t('companies.sso.redirectUriHint')}
          value={settings.redirectUri}
          testId="sso-redirect-uri"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label={t('companies.sso.issuer')}
            placeholder="https://id.example.com/realms/acme"
            required
            {...text('issuer')}
          />
          <TextInput label={t('companies.sso.clientId')} required {...text('clientId')} />
          <div>
            <PasswordInput
              label={t('companies.sso.clientSecret')}
              description={secretState}
              placeholder={settings.clientSecretSet ? t('companies.sso.secretKeep') : undefined}
              value={form.clientSecret}
              onChange={(event) => set('clientSecret', event.currentTarget.value)}
              error={fieldError(save.error, 'clientSecret')}
              disabled={!editable || form.removeSecret}
              autoComplete="off"
            />
            {settings.clientSecretSet && editable && (
              <Checkbox
                mt="xs"
                size="xs"
                label={t('companies.sso.removeSecret')}
                checked={form.removeSecret}
                onChange={(event) => set('removeSecret', event.currentTarget.checked)}
              />
            )}
          </div>
          <TextInput
            label={t('companies.sso.scopes')}
            description={t('companies.sso.scopesHint')}
            {...text('scopes')}
          />
          <TextInput
            label={t('companies.sso.passwordChangeUrl')}
            description={t('companies.sso.passwordChangeUrlHint')}
            placeholder="https://id.example.com/account"
            {...text('passwordChangeUrl')}
          />
          {mayReadRoles && (
            <Select<number>
              label={t('companies.sso.defaultRole')}
              description={t('companies.sso.defaultRoleHint')}
              placeholder={t('companies.sso.noRole')}
              data={(roles.data?.results ?? []).map((role) => ({ value: role.id, label: role.name }))}
              value={form.defaultRoleId}
              onChange={(value) => set('defaultRoleId', value)}
              clearable
              searchable
              disabled={!editable}
              error={fieldError(save.error, 'defaultRoleId')}
            />
          )}
        </SimpleGrid>
        <Switch
          label={t('companies.sso.jitCreate')}
          description={t('companies.sso.jitCreateHint')}
          checked={form.jitCreate}
          onChange={(event) => set('jitCreate', event.currentTarget.checked)}
          disabled={!editable}
        />
        <FormError error={save.error} shownFields={shownFields} />
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {settings.updatedAt
              ? t('companies.sso.updated', { date: formatDate(settings.updatedAt, 'isoDateTime') })
              : ''}
          </Text>
          {editable && (
            <Button type="submit" loading={save.isPending} data-testid="sso-save">
              {t('common.save')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** A company's single sign-on (OpenID Connect) settings; the client secret is write-only. */
export function SsoSettingsPanel({ company }: { company: Company }) {
  const { t } = useTranslation();
  const editable = usePermission({ action: 'change', subject: 'companies' });
  const { data, error, fetch } = useFetchState({
    queryKey: companyKeys.sso(company.id),
    fetcher: (signal) => fetchSsoSettings(company.id, signal),
    clearDataOnFetch: false,
  });
  return (
    <Stack gap="md">
      <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />}>
        {t('companies.sso.hint')}
      </Alert>
      {error && <LoadError message={t('companies.sso.loadFailed')} onRetry={() => void fetch()} />}
      {data && <SsoForm key={data.updatedAt ?? 'new'} company={company} settings={data} editable={editable} />}
    </Stack>
  );
}
