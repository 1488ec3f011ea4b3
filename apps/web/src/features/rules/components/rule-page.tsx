import './rules.css';
import { Alert, Anchor, Breadcrumbs, Button, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCertificate, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LoadError } from '../../../components/list';
import { NotFoundPage } from '../../../components/pages/not-found-page';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { RuleSource } from '../../../components/ui/rule-source';
import { formatDate } from '../../../lib/dates';
import { useFetchState } from '../../../lib/fetch-state';
import { ApiError } from '../../../lib/http';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { Link, useNavigate, useParams } from '../../../lib/router';
import { useSignedInUser } from '../../../lib/session';
import { Panel } from '../../../components/ui/panel';
import { severityPill, useTriageLabels } from '../../triage';
import {
  deleteRule,
  fetchRule,
  ruleKeys,
  rulePaths,
  ruleSubject,
  switchRules,
  type RuleDetail,
  type RuleKind,
} from '../api/rules';
import { RuleAlerts, RuleHits } from './rule-activity';
import { useRuleKind } from './rule-kind';
import { RuleRevisions } from './rule-revisions';
import { RuleTest } from './rule-test';

/** A rule's page: `/settings/<kind's page>/<id>`. */
export default function RulePage() {
  const kind = useRuleKind();
  const { id: idParam } = useParams();
  const id = Number(idParam);
  const valid = Number.isSafeInteger(id) && id > 0;
  const { t } = useTranslation();
  const { data, error, fetch } = useFetchState({
    queryKey: ruleKeys.detail(kind, id),
    fetcher: (signal) => fetchRule(kind, id, signal),
    enabled: valid,
    clearDataOnFetch: false,
  });
  if (!valid || (error instanceof ApiError && error.status === 404)) return <NotFoundPage />;
  if (!data) return error ? <LoadError message={t('rules.page.loadFailed')} onRetry={() => void fetch()} /> : null;
  return <RuleView kind={kind} rule={data} />;
}

function RuleView({ kind, rule }: { kind: RuleKind; rule: RuleDetail }) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const labels = useTriageLabels();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const subject = ruleSubject(kind);
  const mayChange = usePermission({ action: 'change', subject });
  const mayDelete = usePermission({ action: 'delete', subject });
  const [askDelete, setAskDelete] = useState(false);
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => switchRules(kind, enabled, { ids: [rule.id] }),
    onSuccess: async (_answer, enabled) => {
      notify({ type: 'success', message: t(enabled ? 'rules.page.switchedOn' : 'rules.page.switchedOff') });
      await queryClient.invalidateQueries({ queryKey: ruleKeys.all(kind) });
    },
  });
  const removal = useMutation({
    mutationFn: () => deleteRule(kind, rule.id),
    onSuccess: async () => {
      notify({ type: 'success', message: t('rules.page.deleted', { title: rule.title }) });
      setAskDelete(false);
      navigate(rulePaths[kind]);
      await queryClient.invalidateQueries({ queryKey: ruleKeys.all(kind) });
    },
  });
  const companyName = (id: number) => me.companies.find((company) => company.id === id)?.name ?? `#${id}`;

  return (
    <Stack gap="lg" className="vigil-settings-page vigil-rule-page">
      <Breadcrumbs>
        <Anchor component={Link} to={rulePaths[kind]} size="sm">
          {t(`rules.kinds.${kind}.title`)}
        </Anchor>
        <Text size="sm" c="dimmed" className="vigil-rule-crumb">
          {rule.ruleKey}
        </Text>
      </Breadcrumbs>
      <Group justify="space-between" align="flex-start" gap="md" wrap="nowrap">
        <Stack gap={6} className="vigil-rule-head">
          <Title order={1} className="vigil-page__title" data-testid="rule-title">
            {rule.title}
          </Title>
          <Group gap="xs">
            <span className="vigil-cell-mono" data-testid="rule-key">
              {rule.ruleKey}
            </span>
            {severityPill(rule.level, labels.severity[rule.level])}
            <Text size="sm" c="dimmed">
              {t('rules.fields.revision')} {rule.revision} · {rule.fileName}
            </Text>
          </Group>
        </Stack>
        <Group gap="md" wrap="nowrap">
          <Switch
            label={t('rules.page.enabled')}
            checked={rule.effectiveEnabled}
            disabled={!mayChange || toggle.isPending || (rule.unsupported !== null && !rule.effectiveEnabled)}
            onChange={(event) => toggle.mutate(event.currentTarget.checked)}
            title={t('rules.page.enabledHint')}
            data-testid="rule-enabled"
          />
          {mayDelete && (
            <Button
              variant="default"
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={() => setAskDelete(true)}
              data-testid="rule-delete"
            >
              {t('rules.page.delete')}
            </Button>
          )}
        </Group>
      </Group>
      <Attribution rule={rule} />
      {rule.unsupported !== null && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="rule-unsupported">
          {t('rules.unsupported', { reason: rule.unsupported })}
        </Alert>
      )}
      <div className="vigil-rule-page__grid">
        <Stack gap="lg" className="vigil-rule-page__main">
          <Panel title={t('rules.page.source')} testId="rule-source-panel">
            <Text size="xs" c="dimmed" mb="xs">
              {t('rules.page.sourceLines', {
                count: rule.source.split('\n').length,
                revision: rule.revision,
                sha: rule.sourceSha256.slice(0, 12),
              })}
            </Text>
            <RuleSource language={kind} source={rule.source} maxHeight={520} testId="rule-source" />
          </Panel>
          <RuleTest key={rule.sourceSha256} kind={kind} source={rule.source} />
          <RuleRevisions kind={kind} rule={rule} />
        </Stack>
        <Stack gap="lg" className="vigil-rule-page__side">
          <Panel title={t('rules.page.details')} testId="rule-details">
            <dl className="vigil-rule-facts">
              {rule.description && (
                <>
                  <dt>{t('rules.fields.description')}</dt>
                  <dd>{rule.description}</dd>
                </>
              )}
              <dt>{t('rules.fields.scope')}</dt>
              <dd>{rule.scope === 'all' ? t('rules.scopeAll') : companyName(rule.companyId)}</dd>
              {rule.disabledFor.length > 0 && (
                <>
                  <dt>{t('rules.page.disabledFor')}</dt>
                  <dd>{rule.disabledFor.map(companyName).join(', ')}</dd>
                </>
              )}
              {rule.techniques.length > 0 && (
                <>
                  <dt>{t('rules.fields.techniques')}</dt>
                  <dd className="vigil-cell-mono">{rule.techniques.join(', ')}</dd>
                </>
              )}
              {rule.tags.length > 0 && (
                <>
                  <dt>{t('rules.fields.tags')}</dt>
                  <dd>{rule.tags.join(', ')}</dd>
                </>
              )}
              {Object.entries(rule.details).map(([name, value]) => (
                <div key={name} className="vigil-rule-facts__pair" data-testid="rule-detail">
                  <dt>{name}</dt>
                  <dd className="vigil-rule-break">
                    <DetailValue value={value} />
                  </dd>
                </div>
              ))}
              {rule.references.length > 0 && (
                <>
                  <dt>{t('rules.fields.references')}</dt>
                  <dd>
                    <Stack gap={2}>
                      {rule.references.map((reference) =>
                        /^https?:\/\//.test(reference) ? (
                          <Anchor
                            key={reference}
                            href={reference}
                            target="_blank"
                            rel="noopener noreferrer"
                            size="sm"
                            className="vigil-rule-break"
                          >
                            {reference}
                          </Anchor>
                        ) : (
                          <Text key={reference} size="sm" className="vigil-rule-break">
                            {reference}
                          </Text>
                        ),
                      )}
                    </Stack>
                  </dd>
                </>
              )}
              <dt>{t('rules.fields.updated')}</dt>
              <dd className="vigil-cell-mono">{formatDate(rule.updatedAt, 'isoDateTime')}</dd>
            </dl>
          </Panel>
          <RuleHits rule={rule} />
          <RuleAlerts kind={kind} rule={rule} />
        </Stack>
      </div>
      <ConfirmModal
        opened={askDelete}
        title={t('rules.page.deleteTitle')}
        message={t('rules.page.deleteConfirm', { title: rule.title })}
        confirmLabel={t('common.delete')}
        danger
        loading={removal.isPending}
        onConfirm={() => removal.mutate()}
        onClose={() => setAskDelete(false)}
      />
    </Stack>
  );
}

/** Who wrote the rule and under which licence: shown where it cannot be missed (Sigma's DRL asks for it). */
function Attribution({ rule }: { rule: RuleDetail }) {
  const { t } = useTranslation();
  const text = !rule.author
    ? t('rules.page.noAuthor')
    : rule.licence
      ? t('rules.page.attribution', { author: rule.author, licence: rule.licence })
      : t('rules.page.attributionNoLicence', { author: rule.author });
  return (
    <Group gap="xs" wrap="nowrap" className="vigil-rule-attribution" data-testid="rule-attribution">
      <IconCertificate size={18} stroke={1.6} />
      <Text size="sm" fw={600}>
        {text}
      </Text>
    </Group>
  );
}

/** A parsed field's value: plain values as text, lists joined, a record (YARA meta, Sigma logsource) one pair a line. */
function DetailValue({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) {
    return <>—</>;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return <>{String(value)}</>;
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) {
    return <>{value.join(', ')}</>;
  }
  if (typeof value === 'object' && !Array.isArray(value)) {
    const pairs = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== null && item !== '');
    return (
      <span className="vigil-rule-facts__record">
        {pairs.map(([key, item]) => (
          <span key={key}>
            <span className="vigil-rule-facts__key">{key}:</span>{' '}
            {typeof item === 'object' ? JSON.stringify(item) : String(item)}
          </span>
        ))}
      </span>
    );
  }
  return <>{JSON.stringify(value)}</>;
}
