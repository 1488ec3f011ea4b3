import type {
  Rule as RuleWire,
  RuleDetail as RuleDetailWire,
  RuleFilters,
  RuleImport,
  RuleKind,
  RuleTest,
  RuleTestAnswer as RuleTestAnswerWire,
  SuricataThreshold as SuricataThresholdWire,
} from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import { call, type Camelize } from '../../../lib/http';
import { defineList, type FiltersOf } from '../../../lib/list';
import { rulePath, rulePaths } from '../../../lib/rule-store';

export type { RuleKind };
export type Rule = Camelize<RuleWire>;
export type RuleDetail = Camelize<RuleDetailWire>;
export type RuleTestAnswer = Camelize<RuleTestAnswerWire>;
export type SuricataThreshold = Camelize<SuricataThresholdWire>;

export { rulePath, rulePaths };
/** The permission subject of each kind. */
export const ruleSubject = (kind: RuleKind) => `rules/${kind}` as const;

export const ruleKeys = {
  all: (kind: RuleKind) => [ruleSubject(kind)] as const,
  detail: (kind: RuleKind, id: number) => [ruleSubject(kind), 'detail', id] as const,
  diff: (kind: RuleKind, id: number, from: number, to: number) => [ruleSubject(kind), 'diff', id, from, to] as const,
  alerts: (kind: RuleKind, id: number) => [ruleSubject(kind), 'alerts', id] as const,
  /** The threshold.config list shares the signatures' basename: both are read again after a change. */
  thresholds: ['rules/suricata'] as const,
  scan: ['warehouse', 'yara-scan'] as const,
};

const page = { pageSizes: [25, 50, 100, 200], defaultPageSize: 50 } as const;

/** Each kind's list over the list engine, filters and ordering kept in the URL. */
export const ruleLists = {
  suricata: defineList(endpoints.rules.suricata.list, { ...page, omit: ['scope', 'companyId'] }),
  sigma: defineList(endpoints.rules.sigma.list, { ...page, omit: ['scope', 'companyId'] }),
  yara: defineList(endpoints.rules.yara.list, { ...page, omit: ['scope', 'companyId'] }),
};
export type RuleListFilters = (typeof ruleLists)['suricata']['filters'];

/** The company's threshold.config entries. */
export const thresholdList = defineList(endpoints.rules.suricata.thresholds.list, {
  ...page,
  omit: ['companyId'],
});

export const fetchRule = (kind: RuleKind, id: number, signal?: AbortSignal) =>
  call(endpoints.rules[kind].get, { params: { id }, signal, notifyErrors: false });

export const fetchRuleDiff = (kind: RuleKind, id: number, from: number, to: number, signal?: AbortSignal) =>
  call(endpoints.rules[kind].diff, { params: { id }, query: { from, to }, signal });

/** A list's filters as the page keeps them: values read from the address are plain text, checked by the server. */
export type RuleListState = FiltersOf<RuleListFilters>;

/** Turns rules on or off: some by id, or every rule the list's filters give. */
export const switchRules = (kind: RuleKind, enabled: boolean, target: { ids: number[] } | { filters: RuleListState }) =>
  call(endpoints.rules[kind].bulk, {
    body: { enabled, ...target } as { enabled: boolean } & ({ ids: number[] } | { filters: Camelize<RuleFilters> }),
  });

export const deleteRule = (kind: RuleKind, id: number) => call(endpoints.rules[kind].remove, { params: { id } });

/** The import dialog's fields the server may name in a 400. */
export const importFields = ['files', 'companyId', 'licence'] as const;

export const importRules = (kind: RuleKind, body: Camelize<RuleImport>) =>
  call(endpoints.rules[kind].import, { body, shownFields: importFields });

/** The test form's fields the server may name in a 400. */
export const testFields = ['source', 'event', 'file'] as const;

export const testRule = (kind: RuleKind, body: Camelize<RuleTest>) =>
  call(endpoints.rules[kind].test, { body, shownFields: testFields });

/** The last alerts a rule raised, newest first. */
export const fetchRuleAlerts = (id: number, signal?: AbortSignal) =>
  call(endpoints.alerts.list, {
    query: { pageSize: 20, ordering: '-last_seen' },
    body: { ruleId: [id] },
    signal,
    notifyErrors: false,
  });

/** The threshold form's fields the server may name in a 400. */
export const thresholdFields = ['entry', 'comment', 'companyId'] as const;

export const createThreshold = (body: { entry: string; comment: string; companyId?: number }) =>
  call(endpoints.rules.suricata.thresholds.create, { body, shownFields: thresholdFields });
export const updateThreshold = (id: number, body: { entry: string; comment: string }) =>
  call(endpoints.rules.suricata.thresholds.update, { params: { id }, body, shownFields: thresholdFields });
export const deleteThreshold = (id: number) => call(endpoints.rules.suricata.thresholds.remove, { params: { id } });

/** How far the rescan of the warehouse with the enabled YARA rules is. */
export const fetchYaraScan = (signal?: AbortSignal) =>
  call(endpoints.yaraScans.progress, { signal, notifyErrors: false });
