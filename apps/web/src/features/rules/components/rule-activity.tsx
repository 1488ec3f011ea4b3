import { Anchor, Group, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatDate } from '../../../lib/dates';
import { useTranslation } from '../../../lib/i18n';
import { usePermission } from '../../../lib/permissions';
import { Link } from '../../../lib/router';
import { Panel } from '../../../components/ui/panel';
import { severityPill, useTriageLabels } from '../../triage';
import { fetchRuleAlerts, ruleKeys, type RuleDetail, type RuleKind } from '../api/rules';
import { hitDays } from '../lib/hit-days';

/** The rule's hits per day over the last 30 days, as bars (a day without hits is an empty slot). */
export function RuleHits({ rule }: { rule: RuleDetail }) {
  const { t } = useTranslation();
  const days = hitDays(rule.hits.days, new Date());
  const highest = Math.max(1, ...days.map((day) => day.hits));
  return (
    <Panel title={t('rules.hits.title')} testId="rule-hits-panel">
      {rule.hits.total === 0 ? (
        <Text size="sm" c="dimmed">
          {t('rules.hits.none')}
        </Text>
      ) : (
        <>
          <Group justify="space-between" gap="xs" mb="xs">
            <Text size="sm" fw={600} data-testid="rule-hits-total">
              {t('rules.hits.total', { count: rule.hits.total })}
            </Text>
            {rule.hits.lastHitAt && (
              <Text size="xs" c="dimmed">
                {t('rules.hits.last', { date: formatDate(rule.hits.lastHitAt, 'isoDateTime') })}
              </Text>
            )}
          </Group>
          <div className="vigil-rule-hits" role="list">
            {days.map((day) => {
              const label = t('rules.hits.day', { day: day.day, count: day.hits });
              return (
                <span key={day.day} className="vigil-rule-hits__day" role="listitem" title={label} aria-label={label}>
                  <span
                    className="vigil-rule-hits__bar"
                    data-empty={day.hits === 0 || undefined}
                    style={{ height: `${Math.max(day.hits === 0 ? 0 : 6, (day.hits / highest) * 100)}%` }}
                  />
                </span>
              );
            })}
          </div>
          <Group justify="space-between" mt={4}>
            <Text size="xs" c="dimmed" className="vigil-cell-mono">
              {days[0]?.day}
            </Text>
            <Text size="xs" c="dimmed" className="vigil-cell-mono">
              {days[days.length - 1]?.day}
            </Text>
          </Group>
        </>
      )}
    </Panel>
  );
}

/** The last alerts the rule raised that the user may see, each a link to its page. */
export function RuleAlerts({ kind, rule }: { kind: RuleKind; rule: RuleDetail }) {
  const { t } = useTranslation();
  const labels = useTriageLabels();
  const mayView = usePermission({ action: 'view', subject: 'alerts' });
  const { data, error, isPending } = useQuery({
    queryKey: ruleKeys.alerts(kind, rule.id),
    queryFn: ({ signal }) => fetchRuleAlerts(rule.id, signal),
    enabled: mayView,
  });
  if (!mayView) return null;
  return (
    <Panel title={t('rules.alerts.title')} testId="rule-alerts">
      {isPending ? (
        <Loader size="sm" />
      ) : error || !data ? (
        <Text size="sm" c="red">
          {t('rules.alerts.failed')}
        </Text>
      ) : data.results.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('rules.alerts.none')}
        </Text>
      ) : (
        <>
          <ul className="vigil-rule-alerts">
            {data.results.map((alert) => (
              <li key={alert.id} data-testid="rule-alert">
                <Anchor component={Link} to={`/alerts/${alert.id}`} size="sm" className="vigil-rule-alerts__title">
                  {alert.title}
                </Anchor>
                <Group gap="xs" wrap="nowrap">
                  {severityPill(alert.severity, labels.severity[alert.severity])}
                  <Text size="xs" c="dimmed" className="vigil-cell-mono">
                    #{alert.id} · {formatDate(alert.lastSeen, 'isoDateTime')}
                  </Text>
                </Group>
              </li>
            ))}
          </ul>
          <Group justify="space-between" mt="xs" gap="xs">
            <Text size="xs" c="dimmed">
              {t('rules.alerts.shown', { shown: data.results.length, total: data.count })}
            </Text>
            <Anchor component={Link} to={`/alerts?rule_id=${rule.id}`} size="sm" data-testid="rule-alerts-queue">
              {t('rules.alerts.open')}
            </Anchor>
          </Group>
        </>
      )}
    </Panel>
  );
}
