import { ActionIcon, Anchor, Button, Group, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconLinkOff, IconPlus } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import { FormError, fieldError } from '../../../components/form';
import { LoadError } from '../../../components/list';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { formatDate } from '../../../lib/dates';
import { AlertStatusBadge, alertUrl, SeverityBadge } from '../../triage';
import { parseAlertIds } from '../lib/alert-ids';
import { updateIncident, type IncidentDetail, type LinkedAlert } from '../api/incidents';
import { useIncidentRefresh, useLinkedAlerts } from '../api/hooks';

function AddAlerts({ incident }: { incident: IncidentDetail }) {
  const { t } = useTranslation();
  const refresh = useIncidentRefresh(incident.id);
  const [text, setText] = useState('');
  const [invalid, setInvalid] = useState(false);
  const add = useMutation({
    mutationFn: (ids: number[]) => updateIncident(incident.id, { addAlertIds: ids }, { shownFields: ['addAlertIds'] }),
    onSuccess: async () => {
      setText('');
      await refresh();
    },
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const ids = parseAlertIds(text);
        setInvalid(ids === null);
        if (ids) add.mutate(ids);
      }}
    >
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          size="sm"
          aria-label={t('incidents.alerts.addLabel')}
          placeholder={t('incidents.alerts.addPlaceholder')}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setInvalid(false);
          }}
          error={invalid ? t('incidents.alerts.badIds') : fieldError(add.error, 'addAlertIds')}
          data-testid="add-alert-ids"
        />
        <Button
          type="submit"
          size="sm"
          variant="light"
          leftSection={<IconPlus size={16} />}
          loading={add.isPending}
          disabled={!text.trim()}
        >
          {t('incidents.alerts.add')}
        </Button>
      </Group>
      <FormError error={add.error} shownFields={['addAlertIds']} />
    </form>
  );
}

/** The alerts gathered in the incident, most severe first, each leading to its page. */
export function LinkedAlerts({ incident, editable }: { incident: IncidentDetail; editable: boolean }) {
  const { t } = useTranslation();
  const alerts = useLinkedAlerts(incident.id);
  const refresh = useIncidentRefresh(incident.id);
  const [removing, setRemoving] = useState<LinkedAlert | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => updateIncident(incident.id, { removeAlertIds: [id] }),
    onSuccess: async () => {
      setRemoving(null);
      await refresh();
    },
  });
  const rows = alerts.data?.results ?? [];
  const hidden = (alerts.data?.count ?? 0) - rows.length;

  return (
    <Stack gap="sm" data-testid="linked-alerts">
      {alerts.error ? (
        <LoadError message={t('incidents.alerts.loadFailed')} onRetry={() => void alerts.refetch()} />
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table className="vigil-incident-alerts" layout="fixed" verticalSpacing={6} highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={72}>{t('incidents.alerts.id')}</Table.Th>
                <Table.Th w={110}>{t('incidents.alerts.severity')}</Table.Th>
                <Table.Th>{t('incidents.alerts.title')}</Table.Th>
                <Table.Th w={116}>{t('incidents.alerts.status')}</Table.Th>
                <Table.Th w={136}>{t('incidents.alerts.lastSeen')}</Table.Th>
                {editable && <Table.Th w={44} aria-label={t('incidents.alerts.actions')} />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((alert) => (
                <Table.Tr key={alert.id} data-testid="linked-alert">
                  <Table.Td className="vigil-incident-mono">
                    <Anchor component={Link} to={alertUrl(alert.id)} size="sm">
                      #{alert.id}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <SeverityBadge severity={alert.severity} />
                  </Table.Td>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={alertUrl(alert.id)}
                      size="sm"
                      c="var(--vigil-text-high)"
                      truncate
                      display="block"
                      title={alert.title}
                    >
                      {alert.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <AlertStatusBadge status={alert.status} />
                  </Table.Td>
                  <Table.Td className="vigil-incident-mono">
                    <Text size="xs">{formatDate(alert.lastSeen, 'isoDateTime')}</Text>
                  </Table.Td>
                  {editable && (
                    <Table.Td>
                      <Tooltip label={t('incidents.alerts.remove')} withArrow>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          aria-label={t('incidents.alerts.removeOne', { id: alert.id })}
                          onClick={() => {
                            remove.reset();
                            setRemoving(alert);
                          }}
                        >
                          <IconLinkOff size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
              {!alerts.isLoading && rows.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={editable ? 6 : 5}>
                    <Text size="sm" c="dimmed" ta="center" py="sm">
                      {t('incidents.alerts.none')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {hidden > 0 && (
        <Text size="xs" c="dimmed">
          {t('incidents.alerts.more', { count: hidden })}
        </Text>
      )}
      {editable && <AddAlerts incident={incident} />}
      <ConfirmModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate(removing.id)}
        title={t('incidents.alerts.removeTitle')}
        message={removing ? t('incidents.alerts.removeText', { id: removing.id, title: removing.title }) : ''}
        confirmLabel={t('incidents.alerts.remove')}
        loading={remove.isPending}
      >
        <FormError error={remove.error} />
      </ConfirmModal>
    </Stack>
  );
}
