import { ActionIcon, Group, Paper, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { alertSeverityValues } from '@vigil/contract/client';
import { useMemo, useState } from 'react';
import { useTranslation, type TranslationKey } from '../../../lib/i18n';
import { fetchAssignableUsers, fetchIncident, matcherKeys, searchIncidents } from '../api/matchers';
import { actionTypes, type ActionDraft, type ActionType, type Severity } from '../lib/matcher-draft';

const LOOKUP_STALE_MS = 60_000;

/** One action row: its kind, and the field that kind needs (a user and an incident are picked, not typed). */
export function ActionEditor({
  action,
  index,
  onChange,
  onRemove,
  errorOf,
  removable,
}: {
  action: ActionDraft;
  index: number;
  onChange: (next: ActionDraft) => void;
  onRemove: () => void;
  /** The problem with a field of this row (`assigneeId`, `url`…), from the server or the editor. */
  errorOf: (field: string) => string | undefined;
  removable: boolean;
}) {
  const { t } = useTranslation();
  const set = (changes: Partial<ActionDraft>) => onChange({ ...action, ...changes });
  return (
    <Paper withBorder p="sm" data-testid="matcher-action">
      <Group align="flex-start" gap="sm" wrap="nowrap">
        <Select
          w={260}
          label={t('matchers.action.kind')}
          data={actionTypes.map((value) => ({ value, label: t(`matchers.actionType.${value}`) }))}
          value={action.type}
          onChange={(next) => next && set({ type: next as ActionType })}
          allowDeselect={false}
          error={errorOf('type')}
          comboboxProps={{ withinPortal: true }}
          data-testid={`action-type-${index}`}
        />
        <div style={{ flex: 1, minWidth: 0 }}>
          <ActionField action={action} index={index} set={set} errorOf={errorOf} />
        </div>
        <ActionIcon
          variant="subtle"
          color="red"
          mt={26}
          onClick={onRemove}
          disabled={!removable}
          aria-label={t('matchers.action.remove')}
          title={t('matchers.action.remove')}
          data-testid={`action-remove-${index}`}
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Group>
    </Paper>
  );
}

/** An action whose one field is a text: which field, its label and its limits. */
interface TextActionSpec {
  field: 'tag' | 'to' | 'url';
  label: TranslationKey;
  hint?: TranslationKey;
  maxLength: number;
  inputType?: string;
  placeholder?: string;
}

const textActions: Record<'add_tag' | 'notify_email' | 'notify_webhook', TextActionSpec> = {
  add_tag: { field: 'tag', label: 'matchers.action.tag', maxLength: 100 },
  notify_email: { field: 'to', label: 'matchers.action.to', maxLength: 254, inputType: 'email' },
  notify_webhook: {
    field: 'url',
    label: 'matchers.action.url',
    hint: 'matchers.action.urlHint',
    maxLength: 2000,
    placeholder: 'https://',
  },
};

function ActionField({
  action,
  index,
  set,
  errorOf,
}: {
  action: ActionDraft;
  index: number;
  set: (changes: Partial<ActionDraft>) => void;
  errorOf: (field: string) => string | undefined;
}) {
  const { t } = useTranslation();
  switch (action.type) {
    case 'set_severity':
      return (
        <Select
          label={t('matchers.action.severity')}
          data={[...alertSeverityValues].reverse().map((value) => ({ value, label: t(`triage.severity.${value}`) }))}
          value={action.severity}
          onChange={(next) => next && set({ severity: next as Severity })}
          allowDeselect={false}
          error={errorOf('severity')}
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'assign':
      return (
        <UserPicker
          value={action.assigneeId}
          onChange={(assigneeId) => set({ assigneeId })}
          error={errorOf('assigneeId')}
          testId={`action-user-${index}`}
        />
      );
    case 'add_to_incident':
      return (
        <IncidentPicker
          value={action.incidentId}
          onChange={(incidentId) => set({ incidentId })}
          error={errorOf('incidentId')}
          testId={`action-incident-${index}`}
        />
      );
    case 'add_tag':
    case 'notify_email':
    case 'notify_webhook': {
      const spec = textActions[action.type];
      const value = action[spec.field];
      return (
        <TextInput
          label={t(spec.label)}
          description={spec.hint ? t(spec.hint) : undefined}
          type={spec.inputType}
          maxLength={spec.maxLength}
          placeholder={spec.placeholder}
          value={value}
          onChange={(event) => set({ [spec.field]: event.currentTarget.value })}
          error={errorOf(spec.field)}
          data-testid={`action-${spec.field}-${index}`}
        />
      );
    }
    case 'close_as_benign':
      return null;
  }
}

/** A user of the caller's scope, by name. */
function UserPicker({
  value,
  onChange,
  error,
  testId,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
  error?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const users = useQuery({
    queryKey: matcherKeys.users,
    queryFn: ({ signal }) => fetchAssignableUsers(signal),
    staleTime: LOOKUP_STALE_MS,
  });
  const data = useMemo(() => {
    const options = (users.data ?? []).map((user) => ({
      value: String(user.id),
      label: user.fullName && user.fullName !== user.username ? `${user.fullName} (${user.username})` : user.username,
    }));
    if (value !== null && !options.some((option) => option.value === String(value)))
      options.push({ value: String(value), label: `#${value}` });
    return options;
  }, [users.data, value]);
  return (
    <Select
      label={t('matchers.action.assignee')}
      placeholder={t('matchers.action.assigneePlaceholder')}
      data={data}
      value={value === null ? null : String(value)}
      onChange={(next) => onChange(next === null ? null : Number(next))}
      searchable
      error={error}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );
}

/** An incident found by its title or number as one types; the one chosen stays named. */
function IncidentPicker({
  value,
  onChange,
  error,
  testId,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
  error?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const chosen = useQuery({
    queryKey: matcherKeys.incident(value ?? 0),
    queryFn: ({ signal }) => fetchIncident(value!, signal),
    enabled: value !== null,
    staleTime: LOOKUP_STALE_MS,
  });
  const label = (incident: { id: number; title: string }) => `#${incident.id} ${incident.title}`;
  // The box shows the chosen incident's name once picked: that is not a search.
  const typed = chosen.data && search === label(chosen.data) ? '' : search.trim().replace(/^#/, '');
  const [wanted] = useDebouncedValue(typed, 250);
  const found = useQuery({
    queryKey: matcherKeys.incidents(wanted),
    queryFn: ({ signal }) => searchIncidents(wanted, signal),
    staleTime: LOOKUP_STALE_MS,
  });
  const data = useMemo(() => {
    const options = (found.data?.results ?? []).map((incident) => ({
      value: String(incident.id),
      label: label(incident),
    }));
    if (value !== null && !options.some((option) => option.value === String(value)))
      options.unshift({ value: String(value), label: chosen.data ? label(chosen.data) : `#${value}` });
    return options;
  }, [found.data, chosen.data, value]);
  return (
    <Select
      label={t('matchers.action.incident')}
      placeholder={t('matchers.action.incidentPlaceholder')}
      data={data}
      value={value === null ? null : String(value)}
      onChange={(next) => onChange(next === null ? null : Number(next))}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      error={error}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );
}
