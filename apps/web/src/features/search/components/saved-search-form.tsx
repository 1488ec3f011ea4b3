import {
  Checkbox,
  Chip,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SavedSearchSharing } from '@vigil/contract';
import { searchKinds, type SearchKind } from '@vigil/contract/query';
import { alertSeverityValues } from '@vigil/contract/client';
import { useMemo, useState } from 'react';
import { FormActions, FormError, FormFrame, fieldProblem } from '../../../components/form';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { useSignedInUser } from '../../../lib/session';
import {
  createSavedSearch,
  fetchSubscribableUsers,
  savedSearchFormFields,
  savedSearchKeys,
  updateSavedSearch,
  type SavedSearch,
} from '../api/saved-searches';
import { queryProblem } from '../lib/query-problems';
import { subscriberOptions } from '../lib/subscriber-options';

type Severity = (typeof alertSeverityValues)[number];

/** Who sees a saved search besides its owner (the contract's `savedSearchSharings`). */
const savedSearchSharings = ['private', 'company', 'companies'] as const satisfies readonly SavedSearchSharing[];

interface Draft {
  name: string;
  query: string;
  type: SearchKind[];
  enabled: boolean;
  intervalMinutes: number;
  sharing: SavedSearchSharing;
  companyIds: number[];
  raise: boolean;
  severity: Severity;
  title: string;
  mitre: string[];
  subscriberIds: number[];
}

const draftOf = (saved: SavedSearch | null, start: { query: string; type: SearchKind[] }): Draft => ({
  name: saved?.name ?? '',
  query: saved?.query ?? start.query,
  type: (saved?.type as SearchKind[] | undefined) ?? start.type,
  enabled: saved?.enabled ?? false,
  intervalMinutes: saved?.intervalMinutes ?? 15,
  sharing: saved?.sharing ?? 'private',
  companyIds: saved?.companyIds ?? [],
  raise: saved?.alert !== null && saved?.alert !== undefined,
  severity: (saved?.alert?.severity as Severity | undefined) ?? 'medium',
  title: saved?.alert?.title ?? '{{name}}: {{count}}',
  mitre: saved?.alert?.mitre ?? [],
  subscriberIds: saved?.subscriberIds ?? [],
});

/**
 * Saving a search, or changing a saved one: its name, query and data, whether it runs on a schedule
 * (every so many minutes, over the events that arrived since) and raises alerts, and who sees it.
 */
export function SavedSearchModal({
  opened,
  saved,
  start,
  onClose,
}: {
  opened: boolean;
  /** The saved search to change; null saves a new one from `start`. */
  saved: SavedSearch | null;
  start: { query: string; type: SearchKind[] };
  onClose: (saved?: SavedSearch) => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={() => onClose()}
      title={
        <Text fw={700}>{saved ? t('search.saved.editTitle', { name: saved.name }) : t('search.saved.newTitle')}</Text>
      }
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {opened && <SavedSearchForm saved={saved} start={start} onClose={onClose} />}
    </Modal>
  );
}

function SavedSearchForm({
  saved,
  start,
  onClose,
}: {
  saved: SavedSearch | null;
  start: { query: string; type: SearchKind[] };
  onClose: (saved?: SavedSearch) => void;
}) {
  const { t, i18n } = useTranslation();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(saved, start));
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const problem = queryProblem(draft.query, draft.type);
  const save = useMutation({
    mutationFn: () => {
      const data = {
        name: draft.name,
        query: draft.query,
        type: draft.type,
        enabled: draft.enabled,
        intervalMinutes: draft.intervalMinutes,
        sharing: draft.sharing,
        companyIds: draft.sharing === 'companies' ? draft.companyIds : [],
        alert: draft.raise ? { severity: draft.severity, title: draft.title, mitre: draft.mitre } : null,
        subscriberIds: draft.subscriberIds,
      };
      return saved ? updateSavedSearch(saved.id, data) : createSavedSearch(data);
    },
    onSuccess: async (answer) => {
      notify({ type: 'success', message: t('search.saved.savedOne', { name: answer.name }) });
      await queryClient.invalidateQueries({ queryKey: savedSearchKeys.all });
      onClose(answer);
    },
  });
  const error = (field: string, key: string) =>
    fieldProblem(save.error, field, i18n.language, () => t(`search.saved.errors.${key}` as 'search.saved.errors.name'));
  const users = useQuery({
    queryKey: savedSearchKeys.users,
    queryFn: ({ signal }) => fetchSubscribableUsers(signal),
    staleTime: 60_000,
  });
  const userOptions = useMemo(
    () => subscriberOptions(users.data ?? [], draft.subscriberIds),
    [users.data, draft.subscriberIds],
  );
  const sharings = savedSearchSharings.filter((sharing) => sharing !== 'companies' || me.companies.length > 1);

  return (
    <FormFrame onSubmit={() => problem === null && save.mutate()} testId="saved-search-form">
      <TextInput
        label={t('search.saved.fields.name')}
        required
        maxLength={200}
        value={draft.name}
        onChange={(event) => set('name', event.currentTarget.value)}
        error={error('name', 'name')}
        data-autofocus
        data-testid="saved-search-name"
      />
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('search.kindsLabel')}
        </Text>
        <Chip.Group multiple value={draft.type} onChange={(value) => set('type', value as SearchKind[])}>
          <Group gap={6}>
            {searchKinds.map((kind) => (
              <Chip key={kind} value={kind} size="sm">
                {t(`search.kinds.${kind}`)}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Stack>
      <Textarea
        label={t('search.queryLabel')}
        value={draft.query}
        autosize
        minRows={1}
        maxRows={5}
        classNames={{ input: 'vigil-cell-mono' }}
        onChange={(event) => set('query', event.currentTarget.value)}
        error={
          problem
            ? t('search.problemAt', {
                position: String(problem.position + 1),
                message: i18n.language === 'en' ? problem.message : t(`search.problems.${problem.code}`),
              })
            : error('query', 'query')
        }
        data-testid="saved-search-query"
      />
      <Group grow align="flex-start">
        <Switch
          label={t('search.saved.fields.enabled')}
          description={t('search.saved.hints.enabled')}
          checked={draft.enabled}
          onChange={(event) => set('enabled', event.currentTarget.checked)}
          data-testid="saved-search-enabled"
        />
        <NumberInput
          label={t('search.saved.fields.interval')}
          min={1}
          max={1440}
          value={draft.intervalMinutes}
          onChange={(value) => set('intervalMinutes', typeof value === 'number' ? value : 15)}
          error={error('intervalMinutes', 'interval')}
          data-testid="saved-search-interval"
        />
      </Group>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('search.saved.fields.sharing')}
        </Text>
        <SegmentedControl
          value={draft.sharing}
          onChange={(value) => set('sharing', value as SavedSearchSharing)}
          data={sharings.map((value) => ({ value, label: t(`search.saved.sharing.${value}`) }))}
          data-testid="saved-search-sharing"
        />
      </Stack>
      {draft.sharing === 'companies' && (
        <MultiSelect
          label={t('search.saved.fields.companies')}
          data={me.companies.map((company) => ({ value: String(company.id), label: company.name }))}
          value={draft.companyIds.map(String)}
          onChange={(value) => set('companyIds', value.map(Number))}
          error={error('companyIds', 'companies')}
          searchable
        />
      )}
      <MultiSelect
        label={t('search.saved.fields.subscribers')}
        description={t('search.saved.hints.subscribers')}
        data={userOptions}
        value={draft.subscriberIds.map(String)}
        onChange={(value) => set('subscriberIds', value.map(Number))}
        error={error('subscriberIds', 'subscribers')}
        searchable
        clearable
        nothingFoundMessage={t('search.saved.noUsers')}
        data-testid="saved-search-subscribers"
      />
      <Checkbox
        label={t('search.saved.fields.raise')}
        checked={draft.raise}
        onChange={(event) => set('raise', event.currentTarget.checked)}
        data-testid="saved-search-raise"
      />
      {draft.raise && (
        <Stack gap="xs">
          <Group grow align="flex-start">
            <Select
              label={t('search.saved.fields.severity')}
              data={alertSeverityValues.map((value) => ({ value, label: t(`search.saved.severity.${value}`) }))}
              value={draft.severity}
              onChange={(value) => value && set('severity', value as Severity)}
              allowDeselect={false}
            />
            <TextInput
              label={t('search.saved.fields.title')}
              description={t('search.saved.hints.title')}
              value={draft.title}
              maxLength={300}
              onChange={(event) => set('title', event.currentTarget.value)}
              error={error('alert', 'alert')}
            />
          </Group>
          <TagsInput
            label={t('search.saved.fields.mitre')}
            value={draft.mitre}
            onChange={(value) => set('mitre', value)}
            maxTags={20}
            splitChars={[',', ' ']}
          />
        </Stack>
      )}
      <FormError error={save.error} shownFields={savedSearchFormFields} />
      <FormActions
        onCancel={() => onClose()}
        submitLabel={t('search.saved.save')}
        loading={save.isPending}
        disabled={problem !== null || draft.type.length === 0 || draft.name.trim() === ''}
        submitTestId="saved-search-submit"
      />
    </FormFrame>
  );
}
