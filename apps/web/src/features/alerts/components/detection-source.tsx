import { Anchor, Group, Loader, Stack, Text } from '@mantine/core';
import { IconCertificate } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { RuleKind } from '@vigil/contract';
import { Panel } from '../../../components/ui/panel';
import { RuleSource } from '../../../components/ui/rule-source';
import { ApiError } from '../../../lib/http';
import { useTranslation } from '../../../lib/i18n';
import { usePermission } from '../../../lib/permissions';
import { Link } from '../../../lib/router';
import { isRuleKind, rulePath } from '../../../lib/rule-store';
import { severityPill, useTriageLabels } from '../../triage';
import { alertKeys, fetchDetectionIndicator, fetchDetectionRule, type AlertDetail } from '../api/alerts';

/** The stored rule or the policy indicator an alert's detection names, read from the alert's `detection`. */
function sourceOf(
  detection: Record<string, unknown>,
): { kind: 'rule'; engine: RuleKind; id: number } | { kind: 'indicator'; id: number } | null {
  if (detection.type === 'rule' && isRuleKind(detection.engine) && typeof detection.storedRuleId === 'number') {
    return { kind: 'rule', engine: detection.engine, id: detection.storedRuleId };
  }
  if (detection.type === 'indicator' && typeof detection.indicatorId === 'number') {
    return { kind: 'indicator', id: detection.indicatorId };
  }
  return null;
}

/** What raised the alert, as it is in the store now: the rule with its source, or the policy indicator. */
export function DetectionSourceCard({ alert }: { alert: AlertDetail }) {
  const source = sourceOf(alert.detection);
  if (!source) return null;
  return source.kind === 'rule' ? <RuleCard engine={source.engine} id={source.id} /> : <IndicatorCard id={source.id} />;
}

/** A read that found nothing (deleted, or not visible to the user) says so instead of failing. */
const gone = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 403);

function RuleCard({ engine, id }: { engine: RuleKind; id: number }) {
  const { t } = useTranslation();
  const labels = useTriageLabels();
  const mayView = usePermission({ action: 'view', subject: `rules/${engine}` });
  const { data, error, isPending } = useQuery({
    queryKey: alertKeys.rule(engine, id),
    queryFn: ({ signal }) => fetchDetectionRule(engine, id, signal),
    enabled: mayView,
    retry: (count, failure) => !gone(failure) && count < 2,
  });
  if (!mayView) return null;
  return (
    <Panel title={t('alerts.detail.detectionSource.ruleTitle')} testId="alert-rule">
      {isPending ? (
        <Loader size="sm" />
      ) : gone(error) || !data ? (
        <Text size="sm" c="dimmed" data-testid="alert-rule-gone">
          {gone(error) ? t('alerts.detail.detectionSource.ruleGone') : t('alerts.detail.detectionSource.failed')}
        </Text>
      ) : (
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start" gap="sm" wrap="nowrap">
            <Stack gap={4} miw={0}>
              <Anchor component={Link} to={rulePath(engine, data.id)} fw={600} data-testid="alert-rule-link">
                {data.title}
              </Anchor>
              <Group gap="xs">
                <span className="vigil-mitre">{data.ruleKey}</span>
                {severityPill(data.level, labels.severity[data.level])}
                <Text size="xs" c="dimmed">
                  {t('alerts.detail.detectionSource.revision', { revision: data.revision })}
                </Text>
              </Group>
            </Stack>
          </Group>
          <Group gap="xs" wrap="nowrap" data-testid="alert-rule-attribution">
            <IconCertificate size={16} stroke={1.6} />
            <Text size="sm" fw={600}>
              {!data.author
                ? t('alerts.detail.detectionSource.noAuthor')
                : data.licence
                  ? t('alerts.detail.detectionSource.attribution', { author: data.author, licence: data.licence })
                  : t('alerts.detail.detectionSource.attributionNoLicence', { author: data.author })}
            </Text>
          </Group>
          <RuleSource language={engine} source={data.source} maxHeight={320} testId="alert-rule-source" />
        </Stack>
      )}
    </Panel>
  );
}

function IndicatorCard({ id }: { id: number }) {
  const { t } = useTranslation();
  const labels = useTriageLabels();
  const mayView = usePermission({ action: 'view', subject: 'indicators' });
  const { data, error, isPending } = useQuery({
    queryKey: alertKeys.indicator(id),
    queryFn: ({ signal }) => fetchDetectionIndicator(id, signal),
    enabled: mayView,
    retry: (count, failure) => !gone(failure) && count < 2,
  });
  if (!mayView) return null;
  return (
    <Panel title={t('alerts.detail.detectionSource.indicatorTitle')} testId="alert-indicator">
      {isPending ? (
        <Loader size="sm" />
      ) : gone(error) || !data ? (
        <Text size="sm" c="dimmed">
          {gone(error) ? t('alerts.detail.detectionSource.indicatorGone') : t('alerts.detail.detectionSource.failed')}
        </Text>
      ) : (
        <Stack gap={6}>
          <Group gap="xs">
            <span className="vigil-mitre">{data.value}</span>
            {severityPill(data.severity, labels.severity[data.severity])}
          </Group>
          <Text size="sm">
            {t(`indicators.type.${data.type}`)} · {t(`indicators.policy.${data.policy}`)}
            {data.tags.length > 0 && ` · ${data.tags.join(', ')}`}
          </Text>
          {(data.description || data.source) && (
            <Text size="sm" c="dimmed">
              {[data.source, data.description].filter(Boolean).join(' — ')}
            </Text>
          )}
          {!data.active && (
            <Text size="sm" c="orange">
              {t('alerts.detail.detectionSource.indicatorExpired')}
            </Text>
          )}
          <Anchor
            component={Link}
            to={`/settings/policy-indicators?search=${encodeURIComponent(data.value)}`}
            size="sm"
          >
            {t('alerts.detail.detectionSource.indicatorOpen')}
          </Anchor>
        </Stack>
      )}
    </Panel>
  );
}
