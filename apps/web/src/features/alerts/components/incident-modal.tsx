import { Button, Group, Modal, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import type { AlertSeverity } from '@vigil/contract';
import { alertSeverityValues } from '@vigil/contract/client';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useIncidentSearch } from '../api/hooks';

export type IncidentChoice =
  { kind: 'existing'; incidentId: number } | { kind: 'create'; title: string; severity: AlertSeverity };

/** Adds alerts to an open incident, or makes a new incident of them. */
export function IncidentModal({
  opened,
  defaultMode = 'existing',
  allowExisting = true,
  allowCreate = true,
  defaultTitle,
  defaultSeverity,
  busy,
  onChoose,
  onClose,
}: {
  opened: boolean;
  defaultMode?: 'existing' | 'create';
  /** Whether adding to an existing incident is offered (the caller may link alerts). */
  allowExisting?: boolean;
  /** Whether making a new incident is offered (the caller may add incidents). */
  allowCreate?: boolean;
  defaultTitle: string;
  defaultSeverity: AlertSeverity;
  busy: boolean;
  onChoose: (choice: IncidentChoice) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'existing' | 'create'>(defaultMode);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [incidentId, setIncidentId] = useState<string | null>(null);
  const [title, setTitle] = useState(defaultTitle);
  const [severity, setSeverity] = useState<AlertSeverity>(defaultSeverity);
  const incidents = useIncidentSearch(debounced, opened && mode === 'existing');

  useEffect(() => {
    if (!opened) return;
    setMode(defaultMode);
    setTitle(defaultTitle);
    setSeverity(defaultSeverity);
    setIncidentId(null);
    setSearch('');
  }, [opened, defaultMode, defaultTitle, defaultSeverity]);

  const options = (incidents.data?.results ?? []).map((incident) => ({
    value: String(incident.id),
    label: `#${incident.id} · ${incident.title}`,
  }));
  const valid = mode === 'existing' ? incidentId !== null : title.trim().length > 0;

  return (
    <Modal opened={opened} onClose={onClose} title={t('alerts.incidentModal.title')} size="md">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!valid || busy) return;
          if (mode === 'existing') onChoose({ kind: 'existing', incidentId: Number(incidentId) });
          else onChoose({ kind: 'create', title: title.trim(), severity });
        }}
      >
        <Stack gap="md">
          {allowExisting && allowCreate && (
            <SegmentedControl
              value={mode}
              onChange={(value) => setMode(value as 'existing' | 'create')}
              data={[
                { value: 'existing', label: t('alerts.incidentModal.existing') },
                { value: 'create', label: t('alerts.incidentModal.create') },
              ]}
              fullWidth
            />
          )}
          {mode === 'existing' ? (
            <Select
              label={t('alerts.incidentModal.pick')}
              placeholder={t('alerts.incidentModal.pickPlaceholder')}
              data={options}
              value={incidentId}
              onChange={setIncidentId}
              searchable
              searchValue={search}
              onSearchChange={setSearch}
              filter={({ options: all }) => all}
              nothingFoundMessage={incidents.isFetching ? t('common.loading') : t('alerts.incidentModal.noIncidents')}
              data-autofocus
              data-testid="incident-pick"
            />
          ) : (
            <>
              <TextInput
                label={t('alerts.incidentModal.incidentTitle')}
                value={title}
                onChange={(event) => setTitle(event.currentTarget.value)}
                maxLength={300}
                required
                data-autofocus
                data-testid="incident-title"
              />
              <Select
                label={t('alerts.incidentModal.severity')}
                data={alertSeverityValues.map((value) => ({ value, label: t(`triage.severity.${value}`) }))}
                value={severity}
                onChange={(value) => value && setSeverity(value as AlertSeverity)}
                allowDeselect={false}
              />
            </>
          )}
          {mode === 'existing' && incidents.error !== null && incidents.error !== undefined && (
            <Text size="sm" c="red">
              {t('alerts.bulk.failed')}
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={!valid} loading={busy} data-testid="incident-submit">
              {mode === 'existing' ? t('alerts.incidentModal.add') : t('alerts.incidentModal.submitCreate')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
