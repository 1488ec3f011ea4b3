import { Alert, Button, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { FormActions, FormError, FormFrame, fieldError } from '../../../components/form';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { refreshCurrentUser } from '../../../lib/session';
import { companyKeys, createCompany, updateCompany, type Company } from '../api/companies';

/** A company's name, label and description; for an existing one, deactivation and reactivation. */
export function CompanyForm({ company, onClose }: { company: Company | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const editable = usePermission({ action: company ? 'change' : 'add', subject: 'companies' });
  const [form, setForm] = useState({
    name: company?.name ?? '',
    labelName: company?.labelName ?? '',
    description: company?.description ?? '',
  });
  const [confirmActive, setConfirmActive] = useState(false);
  const done = async () => {
    await queryClient.invalidateQueries({ queryKey: companyKeys.all });
    // The header's label and the company pickers come from the current user.
    await refreshCurrentUser();
  };
  const save = useMutation({
    mutationFn: () => {
      const body = {
        name: form.name,
        labelName: form.labelName.trim() === '' ? null : form.labelName,
        description: form.description,
      };
      return company ? updateCompany(company.id, body) : createCompany(body);
    },
    onSuccess: async (answer) => {
      notify({
        type: 'success',
        message: company ? t('companies.saved') : t('companies.created', { name: answer.name }),
      });
      await done();
      onClose();
    },
  });
  const activation = useMutation({
    mutationFn: () => updateCompany(company!.id, { isActive: !company!.isActive }),
    onSuccess: async (answer) => {
      setConfirmActive(false);
      notify({ type: 'success', message: answer.isActive ? t('companies.activated') : t('companies.deactivated') });
      await done();
      onClose();
    },
  });
  const set = (field: keyof typeof form) => ({
    value: form[field],
    onChange: (event: { currentTarget: { value: string } }) => {
      // Read now: the event's target is gone by the time the state updater runs.
      const value = event.currentTarget.value;
      setForm((previous) => ({ ...previous, [field]: value }));
    },
    error: fieldError(save.error, field),
    disabled: !editable,
  });

  return (
    <FormFrame
      onSubmit={() => save.mutate()}
      testId="company-form"
      after={
        company && (
          <ConfirmModal
            opened={confirmActive}
            title={company.isActive ? t('companies.deactivate') : t('companies.activate')}
            message={t(company.isActive ? 'companies.deactivateConfirm' : 'companies.activateConfirm', {
              name: company.name,
            })}
            confirmLabel={company.isActive ? t('companies.deactivate') : t('companies.activate')}
            danger={company.isActive}
            loading={activation.isPending}
            onConfirm={() => activation.mutate()}
            onClose={() => setConfirmActive(false)}
          />
        )
      }
    >
      <TextInput label={t('companies.name')} required maxLength={200} {...set('name')} />
      <TextInput
        label={t('companies.label')}
        description={t('companies.labelHint', { example: `${form.labelName.trim() || 'Vigil'} Managed XDR` })}
        maxLength={100}
        {...set('labelName')}
      />
      <Textarea
        label={t('companies.description')}
        maxLength={2000}
        autosize
        minRows={3}
        maxRows={8}
        {...set('description')}
      />
      <FormError error={save.error} shownFields={['name', 'labelName', 'description']} />
      {editable && (
        <FormActions
          onCancel={onClose}
          submitLabel={company ? t('common.save') : t('companies.create')}
          loading={save.isPending}
          submitTestId="company-form-submit"
        />
      )}
      {company && company.kind === 'customer' && editable && (
        <Alert
          color={company.isActive ? 'red' : 'teal'}
          variant="light"
          title={company.isActive ? t('companies.deactivate') : t('companies.activate')}
        >
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{company.isActive ? t('companies.deactivateHint') : t('companies.activateHint')}</Text>
            <Button
              size="xs"
              color={company.isActive ? 'red' : 'teal'}
              variant="light"
              onClick={() => setConfirmActive(true)}
              data-testid="company-toggle-active"
            >
              {company.isActive ? t('companies.deactivate') : t('companies.activate')}
            </Button>
          </Stack>
        </Alert>
      )}
    </FormFrame>
  );
}
