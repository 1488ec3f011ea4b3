import { Group, Modal, Select, TextInput } from '@mantine/core';
import type { AlertSeverity } from '@vigil/contract';
import { alertSeverityValues } from '@vigil/contract/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useNavigate } from '../../../lib/router';
import { FormActions, FormError, FormFrame, fieldError } from '../../../components/form';
import { notify } from '../../../lib/notifications';
import { incidentUrl } from '../../triage';
import { createIncident, incidentKeys, type IncidentCreate } from '../api/incidents';
import { parseAlertIds } from '../lib/alert-ids';
import { AssigneeSelect } from './assignee-select';
import { MarkdownField } from './markdown-mode';

const FROM_ALERTS = '';
/** The fields the dialog shows the server's problems beside. */
const SHOWN_FIELDS = ['title', 'severity', 'assigneeId', 'alertIds', 'description'];

/** A new incident from alerts named by id: title, severity, description (Markdown) and assignee. */
export function CreateIncidentModal({
  opened,
  onClose,
  initialAlertIds = [],
}: {
  opened: boolean;
  onClose: () => void;
  initialAlertIds?: readonly number[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const [severity, setSeverity] = useState<string>(FROM_ALERTS);
  const [description, setDescription] = useState('');
  const [assigneeId, setAssigneeId] = useState<number | null>(null);
  const [alertText, setAlertText] = useState(initialAlertIds.join(', '));
  const [problems, setProblems] = useState<{ title?: string; alertIds?: string }>({});

  const create = useMutation({
    mutationFn: (input: IncidentCreate) => createIncident(input, { shownFields: SHOWN_FIELDS }),
    onSuccess: async (incident) => {
      queryClient.setQueryData(incidentKeys.detail(incident.id), incident);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: incidentKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['alerts'] }),
      ]);
      notify({ type: 'success', title: t('incidents.create.done'), message: incident.title });
      onClose();
      void navigate(incidentUrl(incident.id));
    },
  });

  const submit = () => {
    const ids = parseAlertIds(alertText);
    const found = {
      ...(title.trim() ? {} : { title: t('incidents.create.titleRequired') }),
      ...(ids ? {} : { alertIds: t('incidents.create.alertIdsRequired') }),
    };
    setProblems(found);
    if (!ids || found.title) return;
    create.mutate({
      title: title.trim(),
      alertIds: ids,
      ...(description.trim() ? { description: description.trim() } : {}),
      ...(severity ? { severity: severity as AlertSeverity } : {}),
      ...(assigneeId !== null ? { assigneeId } : {}),
    });
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('incidents.create.title')} size="lg" centered>
      <FormFrame onSubmit={submit} testId="create-incident-form">
        <IncidentTitleInput
          value={title}
          onChange={setTitle}
          error={problems.title ?? fieldError(create.error, 'title')}
          testId="create-title"
        />
        <Group grow align="flex-start">
          <Select
            label={t('incidents.fields.severity')}
            data={[
              { value: FROM_ALERTS, label: t('incidents.create.severityFromAlerts') },
              ...[...alertSeverityValues].reverse().map((value) => ({ value, label: t(`triage.severity.${value}`) })),
            ]}
            value={severity}
            allowDeselect={false}
            onChange={(value) => setSeverity(value ?? FROM_ALERTS)}
            error={fieldError(create.error, 'severity')}
            data-testid="create-severity"
          />
          <AssigneeSelect
            label={t('incidents.fields.assignee')}
            value={assigneeId}
            onChange={setAssigneeId}
            error={fieldError(create.error, 'assigneeId')}
          />
        </Group>
        <TextInput
          label={t('incidents.create.alertIds')}
          description={t('incidents.create.alertIdsHint')}
          withAsterisk
          value={alertText}
          onChange={(event) => setAlertText(event.currentTarget.value)}
          error={problems.alertIds ?? fieldError(create.error, 'alertIds')}
          data-testid="create-alert-ids"
        />
        <MarkdownField
          label={t('incidents.fields.description')}
          description={t('incidents.create.descriptionHint')}
          rows={[4, 12]}
          value={description}
          onChange={setDescription}
          error={fieldError(create.error, 'description')}
        />
        <FormError error={create.error} shownFields={SHOWN_FIELDS} />
        <FormActions
          onCancel={onClose}
          submitLabel={t('incidents.create.submit')}
          loading={create.isPending}
          submitTestId="create-submit"
        />
      </FormFrame>
    </Modal>
  );
}

/** An incident's title: required, at most 300 characters; the dialog opens with it focused. */
export function IncidentTitleInput({
  value,
  onChange,
  error,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  error: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('incidents.fields.title')}
      withAsterisk
      maxLength={300}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
      data-autofocus
      data-testid={testId}
    />
  );
}
