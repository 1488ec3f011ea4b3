import { describe, expect, it } from 'vitest';
import {
  draftFromMatcher,
  draftToApi,
  emptyDraft,
  missingPicks,
  newAction,
  type Matcher,
  type MatcherDraft,
} from './matcher-draft';
import { conditionsSummary, type SummaryLabels } from './matcher-summary';

const stored: Matcher = {
  id: 7,
  companyId: 3,
  name: 'C2 to the on-call',
  enabled: false,
  allCompanies: true,
  position: 4,
  conditions: {
    severityAtLeast: 'high',
    source: ['network'],
    ruleId: ['2027865'],
    titleContains: 'beacon',
    observableKind: ['domain'],
    companyId: [3, 5],
  },
  actions: [
    { type: 'assign', assigneeId: 12 },
    { type: 'add_to_incident', incidentId: 40 },
    { type: 'set_severity', severity: 'critical' },
    { type: 'add_tag', tag: 'c2' },
    { type: 'close_as_benign' },
    { type: 'notify_email', to: 'soc@example.org' },
    { type: 'notify_webhook', url: 'https://hooks.example.org/vigil' },
  ],
  createdAt: '2026-11-01T10:00:00Z',
  updatedAt: '2026-11-02T10:00:00Z',
};

describe('the matcher editor state', () => {
  it('reads a stored matcher and writes it back as the API takes it, unchanged', () => {
    const draft = draftFromMatcher(stored);
    expect(draft.conditions.titleContains).toBe('beacon');
    expect(draft.conditions.indicatorType).toEqual([]);
    expect(draft.actions.map((action) => action.type)).toEqual(stored.actions.map((action) => action.type));
    expect(new Set(draft.actions.map((action) => action.key)).size).toBe(draft.actions.length);
    expect(draftToApi(draft, false)).toEqual({
      name: stored.name,
      enabled: false,
      allCompanies: true,
      position: 4,
      conditions: stored.conditions,
      actions: stored.actions,
    });
  });

  it('sends only the conditions given, trimmed, and the company of a new matcher', () => {
    const draft: MatcherDraft = emptyDraft(9);
    draft.name = 'Tag phishing';
    draft.conditions.titleContains = '  phish  ';
    draft.conditions.ruleId = [' 1 ', ''];
    draft.conditions.companyId = [2];
    draft.actions = [{ ...newAction('add_tag'), tag: ' phishing ' }];
    expect(draftToApi(draft, true)).toEqual({
      name: 'Tag phishing',
      enabled: true,
      allCompanies: false,
      position: 0,
      companyId: 9,
      // The companies narrow only a matcher over every company.
      conditions: { titleContains: 'phish', ruleId: ['1'] },
      actions: [{ type: 'add_tag', tag: 'phishing' }],
    });
  });

  it('keeps the fields of every kind while the kind of a row changes', () => {
    const row = { ...newAction('notify_email'), to: 'a@example.org' };
    const asWebhook = { ...row, type: 'notify_webhook' as const, url: 'https://x.example' };
    const back = { ...asWebhook, type: 'notify_email' as const };
    const draft = { ...emptyDraft(1), actions: [back] };
    expect(draftToApi(draft, false).actions).toEqual([{ type: 'notify_email', to: 'a@example.org' }]);
  });

  it('asks for a user or an incident before saving an action that needs one', () => {
    const draft = {
      ...emptyDraft(1),
      actions: [newAction('assign'), newAction('add_tag'), newAction('add_to_incident')],
    };
    expect(missingPicks(draft)).toEqual({
      'actions.0.assigneeId': 'chooseUser',
      'actions.2.incidentId': 'chooseIncident',
    });
    draft.actions[0] = { ...draft.actions[0]!, assigneeId: 4 };
    draft.actions[2] = { ...draft.actions[2]!, incidentId: 8 };
    expect(missingPicks(draft)).toEqual({});
  });
});

describe('the conditions summary', () => {
  const labels: SummaryLabels = {
    severity: (code) => code.toUpperCase(),
    source: (code) => `src:${code}`,
    severityAtLeast: (value) => `sev>=${value}`,
    titleContains: (value) => `title~${value}`,
    ruleId: 'rules',
    indicatorType: 'types',
    observableKind: 'kinds',
    observableValue: 'values',
    companies: 'companies',
    none: 'every alert',
  };
  it('names each condition given, and says when there is none', () => {
    expect(conditionsSummary(stored.conditions, labels)).toBe(
      'sev>=HIGH · src:network · title~beacon · rules: 2027865 · kinds: domain · companies: 3, 5',
    );
    expect(conditionsSummary({}, labels)).toBe('every alert');
  });
});
