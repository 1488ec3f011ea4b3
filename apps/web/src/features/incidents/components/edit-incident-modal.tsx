import { Group, Modal, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { FormActions, FormError, FormFrame, fieldError } from '../../../components/form';
import { updateIncident, type IncidentDetail } from '../api/incidents';
import { useIncidentRefresh } from '../api/hooks';
import { MarkdownField, MarkdownModeSwitch, type MarkdownMode } from './markdown-mode';
import { IncidentTitleInput } from './create-incident-modal';

/** The fields the dialog shows the server's problems beside. */
const SHOWN_FIELDS = ['title', 'description'];

/** Changes an incident's title and its Markdown description, with a preview. */
export function EditIncidentModal({ incident, onClose }: { incident: IncidentDetail; onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useIncidentRefresh(incident.id);
  const [title, setTitle] = useState(incident.title);
  const [description, setDescription] = useState(incident.description);
  const [mode, setMode] = useState<MarkdownMode>('write');
  const [titleMissing, setTitleMissing] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      updateIncident(
        incident.id,
        { title: title.trim(), description: description.trim() },
        { shownFields: SHOWN_FIELDS },
      ),
    onSuccess: async () => {
      await refresh();
      onClose();
    },
  });

  return (
    <Modal opened onClose={onClose} title={t('incidents.edit.title')} size="lg" centered>
      <FormFrame
        onSubmit={() => {
          setTitleMissing(!title.trim());
          if (title.trim()) save.mutate();
        }}
        testId="edit-incident-form"
      >
        <IncidentTitleInput
          value={title}
          onChange={setTitle}
          error={titleMissing ? t('incidents.create.titleRequired') : fieldError(save.error, 'title')}
          testId="edit-title"
        />
        <Stack gap={6}>
          <Group justify="space-between">
            <span className="vigil-incident-edit__label">{t('incidents.fields.description')}</span>
            <MarkdownModeSwitch value={mode} onChange={setMode} />
          </Group>
          <MarkdownField
            mode={mode}
            aria-label={t('incidents.fields.description')}
            placeholder={t('incidents.detail.markdownPlaceholder')}
            rows={[6, 18]}
            value={description}
            onChange={setDescription}
            error={fieldError(save.error, 'description')}
            data-testid="edit-description"
          />
        </Stack>
        <FormError error={save.error} shownFields={SHOWN_FIELDS} />
        <FormActions
          onCancel={onClose}
          submitLabel={t('incidents.edit.save')}
          loading={save.isPending}
          submitTestId="edit-submit"
        />
      </FormFrame>
    </Modal>
  );
}
