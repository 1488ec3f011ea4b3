import { Button, Menu, Modal } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { FormActions, FormError, FormFrame, fieldError } from '../../../components/form';
import { Note } from '../../../components/ui/note';
import { incidentStatusColor } from '../../triage';
import { updateIncident, type IncidentDetail } from '../api/incidents';
import { useIncidentRefresh } from '../api/hooks';
import { MarkdownField } from './markdown-mode';
import { allowedTransitions, isClosingStatus, isReopening, type IncidentStatus } from '../lib/transitions';

const SUMMARY_MAX = 5000;

/**
 * The status button of the incident page: the workflow's next statuses; resolving or closing asks
 * for a resolution summary, reopening for a reason, both kept in the timeline.
 */
export function StatusControl({ incident }: { incident: IncidentDetail }) {
  const { t } = useTranslation();
  const refresh = useIncidentRefresh(incident.id);
  const [target, setTarget] = useState<IncidentStatus | null>(null);
  const [summary, setSummary] = useState('');
  const change = useMutation({
    mutationFn: (input: { status: IncidentStatus; summary?: string }) =>
      updateIncident(incident.id, input, { shownFields: ['summary'] }),
    onSuccess: async () => {
      setTarget(null);
      setSummary('');
      await refresh();
    },
  });
  const next = allowedTransitions(incident.status);

  const choose = (status: IncidentStatus) => {
    change.reset();
    if (isClosingStatus(status) || isReopening(incident.status, status)) {
      setSummary('');
      setTarget(status);
    } else {
      change.mutate({ status });
    }
  };

  const needsSummary = target !== null && isClosingStatus(target);
  const trimmed = summary.trim();

  return (
    <>
      <Menu position="bottom-end" withinPortal shadow="md">
        <Menu.Target>
          <Button
            rightSection={<IconChevronDown size={16} />}
            loading={change.isPending && target === null}
            disabled={next.length === 0}
            data-testid="incident-status-button"
          >
            {t('incidents.detail.changeStatus')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{t('incidents.detail.moveTo')}</Menu.Label>
          {next.map((status) => (
            <Menu.Item
              key={status}
              onClick={() => choose(status)}
              leftSection={<span className="vigil-status-dot" data-color={incidentStatusColor[status]} aria-hidden />}
              data-testid={`incident-status-${status}`}
            >
              {t(`triage.incidentStatus.${status}`)}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <Modal
        opened={target !== null}
        onClose={() => setTarget(null)}
        title={
          target
            ? t(needsSummary ? 'incidents.detail.closeTitle' : 'incidents.detail.reopenTitle', {
                status: t(`triage.incidentStatus.${target}`),
              })
            : ''
        }
        centered
      >
        <FormFrame
          onSubmit={() => {
            if (!target || (needsSummary && !trimmed)) return;
            change.mutate({ status: target, ...(trimmed ? { summary: trimmed } : {}) });
          }}
        >
          <Note>{needsSummary ? t('incidents.detail.closeHint') : t('incidents.detail.reopenHint')}</Note>
          <MarkdownField
            label={needsSummary ? t('incidents.detail.resolution') : t('incidents.detail.reopenReason')}
            placeholder={t('incidents.detail.markdownPlaceholder')}
            rows={[4, 12]}
            maxLength={SUMMARY_MAX}
            withAsterisk={needsSummary}
            value={summary}
            onChange={setSummary}
            error={fieldError(change.error, 'summary')}
            data-autofocus
            data-testid="status-summary"
          />
          <FormError error={change.error} shownFields={['summary']} />
          <FormActions
            onCancel={() => setTarget(null)}
            submitLabel={
              target ? t('incidents.detail.moveToStatus', { status: t(`triage.incidentStatus.${target}`) }) : ''
            }
            loading={change.isPending}
            disabled={needsSummary && !trimmed}
          />
        </FormFrame>
      </Modal>
    </>
  );
}
