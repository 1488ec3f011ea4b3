import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { SummaryLabels } from '../lib/matcher-summary';

/** The words of a matcher's conditions summary, in the interface language. */
export function useSummaryLabels(): SummaryLabels {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      severity: (code: string) => t(`triage.severity.${code}` as 'triage.severity.high'),
      source: (code: string) => t(`triage.source.${code}` as 'triage.source.network'),
      severityAtLeast: (value: string) => t('matchers.conditions.summarySeverity', { value }),
      titleContains: (value: string) => t('matchers.conditions.summaryTitle', { value }),
      ruleId: t('matchers.conditions.ruleId'),
      indicatorType: t('matchers.conditions.indicatorType'),
      observableKind: t('matchers.conditions.observableKind'),
      observableValue: t('matchers.conditions.observableValue'),
      companies: t('matchers.conditions.companyId'),
      none: t('matchers.conditions.none'),
    }),
    [t],
  );
}
