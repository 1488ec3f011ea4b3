import type { Camelize } from '../../../lib/http';
import type { Matcher } from './matcher-draft';

type Conditions = Camelize<Matcher['conditions']>;

/** Labels the summary needs, read once per language by the page. */
export interface SummaryLabels {
  severity: (code: string) => string;
  source: (code: string) => string;
  severityAtLeast: (value: string) => string;
  titleContains: (value: string) => string;
  ruleId: string;
  indicatorType: string;
  observableKind: string;
  observableValue: string;
  companies: string;
  none: string;
}

/** A matcher's conditions in one line (the list's cell): each condition given, joined by "·". */
export function conditionsSummary(conditions: Conditions, labels: SummaryLabels): string {
  const parts: string[] = [];
  if (conditions.severityAtLeast) parts.push(labels.severityAtLeast(labels.severity(conditions.severityAtLeast)));
  if (conditions.source?.length) parts.push(conditions.source.map(labels.source).join(', '));
  if (conditions.titleContains) parts.push(labels.titleContains(conditions.titleContains));
  const list = (label: string, values: readonly (string | number)[] | undefined) => {
    if (values?.length) parts.push(`${label}: ${values.join(', ')}`);
  };
  list(labels.ruleId, conditions.ruleId);
  list(labels.indicatorType, conditions.indicatorType);
  list(labels.observableKind, conditions.observableKind);
  list(labels.observableValue, conditions.observableValue);
  list(labels.companies, conditions.companyId);
  return parts.length > 0 ? parts.join(' · ') : labels.none;
}
