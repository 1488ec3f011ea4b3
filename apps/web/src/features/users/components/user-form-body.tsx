import {
  Button,
  Divider,
  Group,
  MultiSelect,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { FormActions, FormError, FormFrame, fieldError } from '../../../components/form';
import { CopyField } from '../../../components/ui/copy-field';
import { notify } from '../../../lib/notifications';
import { useSignedInUser } from '../../../lib/session';
import { useGrantRights, useRoles, useUnits } from '../api/lookups';
import { createUser, updateUser, userKeys, type User } from '../api/users';

interface FormState {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  companyId: number;
  unitId: number | null;
  roleIds: number[];
  extraCompanyIds: number[];
  allCompanies: boolean;
  isSuperuser: boolean;
  ipWhitelist: string[];
  setPassword: boolean;
  password: string;
}

const shownFields = [
  'username',
  'email',
  'firstName',
  'lastName',
  'phone',
  'companyId',
  'unitId',
  'roleIds',
  'extraCompanyIds',
  'allCompanies',
  'isSuperuser',
  'ipWhitelist',
  'password',
];

function initialState(user: User | null, companyId: number): FormState {
  return {
    username: user?.username ?? '',
    email: user?.email ?? '',
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    phone: user?.phone ?? '',
    companyId: user?.companyId ?? companyId,
    unitId: user?.unitId ?? null,
    roleIds: user?.roleIds ?? [],
    extraCompanyIds: user?.extraCompanyIds ?? [],
    allCompanies: user?.allCompanies ?? false,
    isSuperuser: user?.isSuperuser ?? false,
    ipWhitelist: user?.ipWhitelist ?? [],
    setPassword: false,
    password: '',
  };
}

/** The user form; loaded with the drawer's first opening. */
export default function UserForm({
  user,
  onClose,
  onSaved,
}: {
  user: User | null;
  onClose: () => void;
  onSaved: (user: User) => void;
}) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const rights = useGrantRights();
  const { roles } = useRoles();
  const units = useUnits();
  const [form, setForm] = useState(() => initialState(user, me.companyId));
  const [activationLink, setActivationLink] = useState<string | null>(null);
  const creating = user === null;

  const save = useMutation({
    mutationFn: async () => {
      const common = {
        username: form.username.trim(),
        email: form.email.trim() === '' ? null : form.email.trim(),
        firstName: form.firstName,
        lastName: form.lastName,
        phone: form.phone,
        companyId: form.companyId,
        unitId: form.unitId,
        roleIds: form.roleIds,
        extraCompanyIds: form.extraCompanyIds,
        ipWhitelist: form.ipWhitelist,
        ...(rights.allCompanies ? { allCompanies: form.allCompanies } : {}),
        ...(rights.superuser ? { isSuperuser: form.isSuperuser } : {}),
      };
      if (creating) {
        return createUser({ ...common, ...(form.setPassword ? { password: form.password } : {}) });
      }
      return { ...(await updateUser(user.id, common)), activationLink: null };
    },
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      const { activationLink: link, ...saved } = answer;
      if (link) {
        setActivationLink(link);
        onSaved(saved);
        return;
      }
      notify({ type: 'success', message: creating ? t('users.created', { user: saved.username }) : t('users.saved') });
      onSaved(saved);
      onClose();
    },
  });

  const set =
    <K extends keyof FormState>(field: K) =>
    (value: FormState[K]) =>
      setForm((previous) => ({ ...previous, [field]: value }));
  const text = (field: 'username' | 'email' | 'firstName' | 'lastName' | 'phone' | 'password') => ({
    value: form[field],
    onChange: (event: { currentTarget: { value: string } }) => set(field)(event.currentTarget.value),
    error: fieldError(save.error, field),
  });
  const companyOptions = me.companies.map((company) => ({ value: company.id, label: company.name }));
  const companyRoles = roles.filter((role) => role.companyId === form.companyId);
  const companyUnits = units.units.filter((unit) => unit.companyId === form.companyId);

  if (activationLink) {
    return (
      <Stack gap="md" data-testid="activation-result">
        <Text size="sm">{t('users.activationHint', { user: form.username })}</Text>
        <CopyField label={t('users.activationLink')} value={activationLink} testId="activation-link" />
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('common.done')}</Button>
        </Group>
      </Stack>
    );
  }

  return (
    <FormFrame onSubmit={() => save.mutate()} testId="user-form">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput label={t('users.username')} required maxLength={150} autoComplete="off" {...text('username')} />
        <TextInput label={t('users.email')} type="email" maxLength={254} autoComplete="off" {...text('email')} />
        <TextInput label={t('users.firstName')} maxLength={150} {...text('firstName')} />
        <TextInput label={t('users.lastName')} maxLength={150} {...text('lastName')} />
        <TextInput label={t('users.phone')} type="tel" maxLength={40} {...text('phone')} />
        {rights.manyCompanies && (
          <Select<number>
            label={t('users.company')}
            data={companyOptions}
            value={form.companyId}
            onChange={(value) => {
              if (value === null) return;
              // Units and roles belong to a company: those of the previous one no longer fit.
              setForm((previous) => ({
                ...previous,
                companyId: value,
                unitId: null,
                roleIds: [],
                extraCompanyIds: previous.extraCompanyIds.filter((id) => id !== value),
              }));
            }}
            searchable
            allowDeselect={false}
            error={fieldError(save.error, 'companyId')}
            data-testid="user-company"
          />
        )}
      </SimpleGrid>

      <Divider label={t('users.access')} labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <MultiSelect<number>
          label={t('users.roles')}
          placeholder={form.roleIds.length ? undefined : t('users.noRoles')}
          data={companyRoles.map((role) => ({ value: role.id, label: role.name }))}
          value={form.roleIds}
          onChange={set('roleIds')}
          searchable
          clearable
          nothingFoundMessage={t('users.noRolesInCompany')}
          error={fieldError(save.error, 'roleIds')}
          data-testid="user-roles"
        />
        {units.allowed && (
          <Select<number>
            label={t('users.unit')}
            placeholder={t('users.noUnit')}
            data={companyUnits.map((unit) => ({ value: unit.id, label: unit.name }))}
            value={form.unitId}
            onChange={set('unitId')}
            searchable
            clearable
            nothingFoundMessage={t('users.noUnitsInCompany')}
            error={fieldError(save.error, 'unitId')}
          />
        )}
        {rights.manyCompanies && (
          <MultiSelect<number>
            label={t('users.extraCompanies')}
            description={t('users.extraCompaniesHint')}
            data={companyOptions.filter((option) => option.value !== form.companyId)}
            value={form.extraCompanyIds}
            onChange={set('extraCompanyIds')}
            searchable
            clearable
            disabled={form.allCompanies}
            error={fieldError(save.error, 'extraCompanyIds')}
          />
        )}
        <TagsInput
          label={t('users.ipWhitelist')}
          description={t('users.ipWhitelistHint')}
          placeholder="10.0.0.0/24"
          value={form.ipWhitelist}
          onChange={set('ipWhitelist')}
          maxTags={100}
          clearable
          error={fieldError(save.error, 'ipWhitelist')}
          splitChars={[',', ' ', ';']}
        />
      </SimpleGrid>
      {(rights.allCompanies || rights.superuser) && (
        <Stack gap="sm">
          {rights.allCompanies && (
            <Switch
              label={t('users.allCompanies')}
              description={t('users.allCompaniesHint')}
              checked={form.allCompanies}
              onChange={(event) => set('allCompanies')(event.currentTarget.checked)}
              error={fieldError(save.error, 'allCompanies')}
            />
          )}
          {rights.superuser && (
            <Switch
              label={t('users.superuser')}
              description={t('users.superuserHint')}
              checked={form.isSuperuser}
              onChange={(event) => set('isSuperuser')(event.currentTarget.checked)}
              error={fieldError(save.error, 'isSuperuser')}
              color="grape"
            />
          )}
        </Stack>
      )}

      {creating && (
        <>
          <Divider label={t('users.passwordSection')} labelPosition="left" />
          <Switch
            label={t('users.setPasswordNow')}
            description={form.setPassword ? t('users.passwordMustChange') : t('users.activationWillBeShown')}
            checked={form.setPassword}
            onChange={(event) => set('setPassword')(event.currentTarget.checked)}
            data-testid="user-set-password"
          />
          {form.setPassword && (
            <PasswordInput
              label={t('users.password')}
              maxLength={200}
              autoComplete="new-password"
              {...text('password')}
            />
          )}
        </>
      )}

      <FormError error={save.error} shownFields={shownFields} />
      <FormActions
        onCancel={onClose}
        submitLabel={creating ? t('users.create') : t('common.save')}
        loading={save.isPending}
        submitTestId="user-form-submit"
      />
    </FormFrame>
  );
}
