import {
  Anchor,
  Breadcrumbs,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { alertSeverityValues, alertSources } from '@vigil/contract/client';
import { useState } from 'react';
import { FormError, fieldError } from '../../../components/form/form-error';
import { LoadError } from '../../../components/list';
import { NotFoundPage } from '../../../components/pages/not-found-page';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { useFetchState } from '../../../lib/fetch-state';
import { ApiError } from '../../../lib/http';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { Link, useNavigate, useParams } from '../../../lib/router';
import { useSignedInUser } from '../../../lib/session';
import {
  createMatcher,
  deleteMatcher,
  fetchMatcher,
  matcherKeys,
  matcherPath,
  MATCHERS_PATH,
  updateMatcher,
} from '../api/matchers';
import {
  draftFromMatcher,
  draftToApi,
  emptyDraft,
  missingPicks,
  newAction,
  type ActionDraft,
  type ConditionsDraft,
  type Matcher,
  type MatcherDraft,
  type Severity,
} from '../lib/matcher-draft';
import { ActionEditor } from './action-editor';
import { MatcherActionsTaken } from './matcher-actions-taken';

/** Indicator types a condition may name (suggestions; the field takes others). */
const indicatorTypeSuggestions = ['ip', 'cidr', 'domain', 'url', 'email', 'md5', 'sha1', 'sha256', 'filename'];
/** Observable kinds alerts carry (suggestions). */
const observableKindSuggestions = ['ip', 'domain', 'url', 'hash', 'email', 'host', 'user', 'file', 'process'];
/** Fields of the editor the server's answer may name; any other problem is shown above the buttons. */
const shownFields = ['name', 'enabled', 'allCompanies', 'position', 'companyId', 'conditions', 'actions'];

/** The server's problem with exactly this field (not with one of its parts). */
function exactError(error: unknown, field: string): string | undefined {
  return error instanceof ApiError ? error.fieldErrors[field]?.[0] : undefined;
}

/** A matcher's page: `/settings/committed-actions/new` makes one, `/settings/committed-actions/<id>` edits it. */
export default function MatcherPage() {
  const { id: idParam } = useParams();
  const isNew = idParam === 'new';
  const id = Number(idParam);
  const valid = isNew || (Number.isSafeInteger(id) && id > 0);
  const { data, error, fetch } = useFetchState({
    queryKey: matcherKeys.detail(id),
    fetcher: (signal) => fetchMatcher(id, signal),
    enabled: valid && !isNew,
    clearDataOnFetch: false,
  });
  const { t } = useTranslation();
  if (!valid || (error instanceof ApiError && error.status === 404)) return <NotFoundPage />;
  if (!isNew && !data)
    return error ? <LoadError message={t('matchers.loadFailed')} onRetry={() => void fetch()} /> : null;
  return <MatcherEditor key={data?.updatedAt ?? 'new'} matcher={isNew ? null : (data ?? null)} />;
}

function MatcherEditor({ matcher }: { matcher: Matcher | null }) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const editable = usePermission({ action: matcher ? 'change' : 'add', subject: 'matchers' });
  const mayDelete = usePermission({ action: 'delete', subject: 'matchers' });
  const [draft, setDraft] = useState<MatcherDraft>(() =>
    matcher ? draftFromMatcher(matcher) : emptyDraft(me.companyId),
  );
  const [missing, setMissing] = useState<Record<string, string>>({});
  const [askDelete, setAskDelete] = useState(false);
  const set = <K extends keyof MatcherDraft>(field: K, value: MatcherDraft[K]) =>
    setDraft((previous) => ({ ...previous, [field]: value }));
  const setCondition = <K extends keyof ConditionsDraft>(field: K, value: ConditionsDraft[K]) =>
    setDraft((previous) => ({ ...previous, conditions: { ...previous.conditions, [field]: value } }));
  const setAction = (index: number, action: ActionDraft) =>
    setDraft((previous) => ({
      ...previous,
      actions: previous.actions.map((old, at) => (at === index ? action : old)),
    }));

  const save = useMutation({
    mutationFn: () => {
      const body = draftToApi(draft, matcher === null);
      return matcher ? updateMatcher(matcher.id, body, shownFields) : createMatcher(body, shownFields);
    },
    onSuccess: async (answer) => {
      notify({
        type: 'success',
        message: matcher ? t('matchers.saved') : t('matchers.created', { name: answer.name }),
      });
      await queryClient.invalidateQueries({ queryKey: matcherKeys.all });
      if (!matcher) navigate(matcherPath(answer.id), { replace: true });
    },
  });
  const removal = useMutation({
    mutationFn: () => deleteMatcher(matcher!.id),
    onSuccess: async () => {
      notify({ type: 'success', message: t('matchers.deleted', { name: matcher!.name }) });
      await queryClient.invalidateQueries({ queryKey: matcherKeys.all });
      navigate(MATCHERS_PATH);
    },
  });
  const submit = () => {
    const picks = missingPicks(draft);
    setMissing(Object.fromEntries(Object.entries(picks).map(([field, key]) => [field, t(`matchers.action.${key}`)])));
    if (Object.keys(picks).length === 0) save.mutate();
  };
  const error = (field: string) => missing[field] ?? fieldError(save.error, field);
  const conditionError = (field: keyof ConditionsDraft) => error(`conditions.${field}`);
  const severities = [...alertSeverityValues]
    .reverse()
    .map((value) => ({ value, label: t(`triage.severity.${value}`) }));

  return (
    <Stack gap="lg" className="vigil-settings-page">
      <Breadcrumbs>
        <Anchor component={Link} to={MATCHERS_PATH} size="sm">
          {t('matchers.title')}
        </Anchor>
        <Text size="sm" c="dimmed">
          {matcher?.name ?? t('matchers.newTitle')}
        </Text>
      </Breadcrumbs>
      <Group justify="space-between" align="flex-start" gap="md">
        <Title order={1} className="vigil-page__title" data-testid="matcher-title">
          {matcher ? t('matchers.editTitle', { name: matcher.name }) : t('matchers.newTitle')}
        </Title>
        {matcher && mayDelete && (
          <Button
            variant="default"
            color="red"
            leftSection={<IconTrash size={16} />}
            onClick={() => setAskDelete(true)}
            data-testid="matcher-delete"
          >
            {t('matchers.delete')}
          </Button>
        )}
      </Group>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        data-testid="matcher-form"
      >
        <fieldset disabled={!editable} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack gap="lg">
            <Paper p="lg">
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
                <TextInput
                  label={t('matchers.fields.name')}
                  required
                  maxLength={200}
                  value={draft.name}
                  onChange={(event) => set('name', event.currentTarget.value)}
                  error={error('name')}
                  data-autofocus
                  data-testid="matcher-name"
                />
                <NumberInput
                  label={t('matchers.fields.position')}
                  description={t('matchers.fields.positionHint')}
                  min={0}
                  max={100000}
                  allowDecimal={false}
                  value={draft.position}
                  onChange={(value) => set('position', typeof value === 'number' ? value : 0)}
                  error={error('position')}
                />
                {!matcher && me.companies.length > 1 && (
                  <Select<number>
                    label={t('matchers.fields.company')}
                    data={me.companies.map((company) => ({ value: company.id, label: company.name }))}
                    value={draft.companyId}
                    onChange={(next) => next !== null && set('companyId', next)}
                    searchable
                    allowDeselect={false}
                    error={error('companyId')}
                    comboboxProps={{ withinPortal: true }}
                  />
                )}
                <Stack gap="sm" justify="center">
                  <Switch
                    label={t('matchers.fields.enabled')}
                    checked={draft.enabled}
                    onChange={(event) => set('enabled', event.currentTarget.checked)}
                    data-testid="matcher-enabled"
                  />
                  {me.companies.length > 1 && (
                    <Checkbox
                      label={t('matchers.fields.allCompanies')}
                      description={t('matchers.fields.allCompaniesHint')}
                      checked={draft.allCompanies}
                      onChange={(event) => set('allCompanies', event.currentTarget.checked)}
                      error={error('allCompanies')}
                    />
                  )}
                </Stack>
              </SimpleGrid>
            </Paper>

            <Paper p="lg">
              <Title order={3} className="vigil-section__title">
                {t('matchers.fields.conditions')}
              </Title>
              <Text size="sm" c="dimmed" mb="md">
                {t('matchers.conditions.intro')}
              </Text>
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
                <Select
                  label={t('matchers.conditions.severityAtLeast')}
                  placeholder={t('matchers.conditions.anySeverity')}
                  data={severities}
                  value={draft.conditions.severityAtLeast}
                  onChange={(next) => setCondition('severityAtLeast', (next as Severity | null) ?? null)}
                  clearable
                  error={conditionError('severityAtLeast')}
                  comboboxProps={{ withinPortal: true }}
                  data-testid="condition-severity"
                />
                <MultiSelect
                  label={t('matchers.conditions.source')}
                  placeholder={draft.conditions.source.length ? undefined : t('common.any')}
                  data={alertSources.map((value) => ({ value, label: t(`triage.source.${value}`) }))}
                  value={draft.conditions.source}
                  onChange={(next) => setCondition('source', next)}
                  clearable
                  error={conditionError('source')}
                  comboboxProps={{ withinPortal: true }}
                />
                <TextInput
                  label={t('matchers.conditions.titleContains')}
                  maxLength={500}
                  value={draft.conditions.titleContains}
                  onChange={(event) => setCondition('titleContains', event.currentTarget.value)}
                  error={conditionError('titleContains')}
                  data-testid="condition-title"
                />
                <TagsInput
                  label={t('matchers.conditions.ruleId')}
                  description={t('matchers.conditions.ruleIdHint')}
                  value={draft.conditions.ruleId}
                  onChange={(next) => setCondition('ruleId', next)}
                  maxTags={100}
                  clearable
                  error={conditionError('ruleId')}
                />
                <TagsInput
                  label={t('matchers.conditions.indicatorType')}
                  data={indicatorTypeSuggestions}
                  value={draft.conditions.indicatorType}
                  onChange={(next) => setCondition('indicatorType', next)}
                  maxTags={20}
                  clearable
                  error={conditionError('indicatorType')}
                  comboboxProps={{ withinPortal: true }}
                />
                <TagsInput
                  label={t('matchers.conditions.observableKind')}
                  data={observableKindSuggestions}
                  value={draft.conditions.observableKind}
                  onChange={(next) => setCondition('observableKind', next)}
                  maxTags={20}
                  clearable
                  error={conditionError('observableKind')}
                  comboboxProps={{ withinPortal: true }}
                />
                <TagsInput
                  label={t('matchers.conditions.observableValue')}
                  value={draft.conditions.observableValue}
                  onChange={(next) => setCondition('observableValue', next)}
                  maxTags={100}
                  clearable
                  error={conditionError('observableValue')}
                />
                {draft.allCompanies && (
                  <MultiSelect
                    label={t('matchers.conditions.companyId')}
                    placeholder={draft.conditions.companyId.length ? undefined : t('common.any')}
                    data={me.companies.map((company) => ({ value: String(company.id), label: company.name }))}
                    value={draft.conditions.companyId.map(String)}
                    onChange={(next) => setCondition('companyId', next.map(Number))}
                    clearable
                    searchable
                    error={conditionError('companyId')}
                    comboboxProps={{ withinPortal: true }}
                  />
                )}
              </SimpleGrid>
            </Paper>

            <Paper p="lg">
              <Title order={3} className="vigil-section__title" mb="md">
                {t('matchers.fields.actions')}
              </Title>
              <Stack gap="sm">
                {draft.actions.map((action, index) => (
                  <ActionEditor
                    key={action.key}
                    action={action}
                    index={index}
                    onChange={(next) => setAction(index, next)}
                    onRemove={() =>
                      set(
                        'actions',
                        draft.actions.filter((_, at) => at !== index),
                      )
                    }
                    removable={draft.actions.length > 1}
                    errorOf={(field) =>
                      error(`actions.${index}.${field}`) ??
                      (field === 'type' ? exactError(save.error, `actions.${index}`) : undefined)
                    }
                  />
                ))}
                {(draft.actions.length === 0 || exactError(save.error, 'actions')) && (
                  <Text size="sm" c="red" role="alert" data-testid="actions-error">
                    {exactError(save.error, 'actions') ?? t('matchers.action.none')}
                  </Text>
                )}
                <Group>
                  <Button
                    variant="light"
                    leftSection={<IconPlus size={16} />}
                    onClick={() => set('actions', [...draft.actions, newAction()])}
                    disabled={draft.actions.length >= 20}
                    data-testid="action-add"
                  >
                    {t('matchers.action.add')}
                  </Button>
                </Group>
              </Stack>
            </Paper>
            <FormError error={save.error} shownFields={shownFields} />
            {editable && (
              <Group gap="sm">
                <Button type="submit" loading={save.isPending} data-testid="matcher-save">
                  {matcher ? t('common.save') : t('matchers.create')}
                </Button>
                <Button variant="default" component={Link} to={MATCHERS_PATH}>
                  {t('matchers.back')}
                </Button>
              </Group>
            )}
          </Stack>
        </fieldset>
      </form>
      {matcher && <MatcherActionsTaken matcherId={matcher.id} />}
      {matcher && (
        <ConfirmModal
          opened={askDelete}
          title={t('matchers.delete')}
          message={t('matchers.deleteConfirm', { name: matcher.name })}
          confirmLabel={t('common.delete')}
          danger
          loading={removal.isPending}
          onConfirm={() => removal.mutate()}
          onClose={() => setAskDelete(false)}
        />
      )}
    </Stack>
  );
}
