import type { Matcher as MatcherWire, MatcherAction, MatcherConditions, MatcherCreate } from '@vigil/contract';
import type { Camelize } from '../../../lib/http';

/*
 * The matcher editor's state and its two-way mapping to the API's shape: every field of the editor is
 * plain text or a list (what inputs hold), and only conditions and action fields that are filled in
 * reach the API. Action rows keep a key of their own so a removed row does not shift the others' state.
 */

export type Matcher = Camelize<MatcherWire>;
export type Severity = NonNullable<MatcherConditions['severity_at_least']>;
export type ActionType = MatcherAction['type'];

/** The action types, in the order the editor offers them; the type check keeps them complete. */
export const actionTypes = [
  'assign',
  'add_to_incident',
  'set_severity',
  'add_tag',
  'close_as_benign',
  'notify_email',
  'notify_webhook',
] as const;
type MissingAction = Exclude<ActionType, (typeof actionTypes)[number]>;
const actionsComplete: [MissingAction] extends [never] ? true : MissingAction = true;
void actionsComplete;

export interface ConditionsDraft {
  severityAtLeast: Severity | null;
  source: string[];
  ruleId: string[];
  indicatorType: string[];
  titleContains: string;
  observableKind: string[];
  observableValue: string[];
  companyId: number[];
}

export interface ActionDraft {
  key: number;
  type: ActionType;
  severity: Severity;
  assigneeId: number | null;
  tag: string;
  incidentId: number | null;
  to: string;
  url: string;
}

export interface MatcherDraft {
  name: string;
  enabled: boolean;
  allCompanies: boolean;
  position: number;
  companyId: number;
  conditions: ConditionsDraft;
  actions: ActionDraft[];
}

let nextKey = 1;

/** A new action row of a type, its fields empty. */
export function newAction(type: ActionType = 'assign'): ActionDraft {
  return { key: nextKey++, type, severity: 'high', assigneeId: null, tag: '', incidentId: null, to: '', url: '' };
}

/** The editor's state for a new matcher of a company. */
export function emptyDraft(companyId: number): MatcherDraft {
  return {
    name: '',
    enabled: true,
    allCompanies: false,
    position: 0,
    companyId,
    conditions: {
      severityAtLeast: null,
      source: [],
      ruleId: [],
      indicatorType: [],
      titleContains: '',
      observableKind: [],
      observableValue: [],
      companyId: [],
    },
    actions: [newAction()],
  };
}

/** The editor's state for a stored matcher. */
export function draftFromMatcher(matcher: Matcher): MatcherDraft {
  const c = matcher.conditions;
  return {
    name: matcher.name,
    enabled: matcher.enabled,
    allCompanies: matcher.allCompanies,
    position: matcher.position,
    companyId: matcher.companyId,
    conditions: {
      severityAtLeast: c.severityAtLeast ?? null,
      source: [...(c.source ?? [])],
      ruleId: [...(c.ruleId ?? [])],
      indicatorType: [...(c.indicatorType ?? [])],
      titleContains: c.titleContains ?? '',
      observableKind: [...(c.observableKind ?? [])],
      observableValue: [...(c.observableValue ?? [])],
      companyId: [...(c.companyId ?? [])],
    },
    actions: matcher.actions.map((action) => ({ ...newAction(action.type), ...actionFields(action) })),
  };
}

function actionFields(action: Camelize<MatcherAction>): Partial<ActionDraft> {
  switch (action.type) {
    case 'set_severity':
      return { severity: action.severity };
    case 'assign':
      return { assigneeId: action.assigneeId };
    case 'add_tag':
      return { tag: action.tag };
    case 'add_to_incident':
      return { incidentId: action.incidentId };
    case 'notify_email':
      return { to: action.to };
    case 'notify_webhook':
      return { url: action.url };
    case 'close_as_benign':
      return {};
  }
}

/**
 * One action as the API takes it. A field left empty is sent empty (0 for an id), so the server's
 * answer names the field that needs filling in, beside it.
 */
export function actionToApi(action: ActionDraft): Camelize<MatcherAction> {
  switch (action.type) {
    case 'set_severity':
      return { type: 'set_severity', severity: action.severity };
    case 'assign':
      return { type: 'assign', assigneeId: action.assigneeId ?? 0 };
    case 'add_tag':
      return { type: 'add_tag', tag: action.tag.trim() };
    case 'add_to_incident':
      return { type: 'add_to_incident', incidentId: action.incidentId ?? 0 };
    case 'close_as_benign':
      return { type: 'close_as_benign' };
    case 'notify_email':
      return { type: 'notify_email', to: action.to.trim() };
    case 'notify_webhook':
      return { type: 'notify_webhook', url: action.url.trim() };
  }
}

/** The conditions given, without the empty ones (an absent condition holds for every alert). */
export function conditionsToApi(conditions: ConditionsDraft, allCompanies: boolean): Camelize<MatcherConditions> {
  const out: Camelize<MatcherConditions> = {};
  if (conditions.severityAtLeast) out.severityAtLeast = conditions.severityAtLeast;
  if (conditions.source.length) out.source = conditions.source as NonNullable<MatcherConditions['source']>;
  const texts = (values: string[]) => values.map((value) => value.trim()).filter(Boolean);
  if (texts(conditions.ruleId).length) out.ruleId = texts(conditions.ruleId);
  if (texts(conditions.indicatorType).length) out.indicatorType = texts(conditions.indicatorType);
  if (conditions.titleContains.trim()) out.titleContains = conditions.titleContains.trim();
  if (texts(conditions.observableKind).length) out.observableKind = texts(conditions.observableKind);
  if (texts(conditions.observableValue).length) out.observableValue = texts(conditions.observableValue);
  // Only a matcher over every company narrows itself to some.
  if (allCompanies && conditions.companyId.length) out.companyId = [...conditions.companyId];
  return out;
}

/** The body of a create (`companyId` included) or, for a stored matcher, of a change. */
export function draftToApi(draft: MatcherDraft, isNew: boolean): Camelize<MatcherCreate> {
  const body: Camelize<MatcherCreate> = {
    name: draft.name,
    enabled: draft.enabled,
    allCompanies: draft.allCompanies,
    position: draft.position,
    conditions: conditionsToApi(draft.conditions, draft.allCompanies),
    actions: draft.actions.map(actionToApi),
  };
  if (isNew) body.companyId = draft.companyId;
  return body;
}

/** What the editor asks for before saving: a user or an incident picked where an action needs one. */
export function missingPicks(draft: MatcherDraft): Record<string, 'chooseUser' | 'chooseIncident'> {
  const out: Record<string, 'chooseUser' | 'chooseIncident'> = {};
  draft.actions.forEach((action, index) => {
    if (action.type === 'assign' && action.assigneeId === null) out[`actions.${index}.assigneeId`] = 'chooseUser';
    if (action.type === 'add_to_incident' && action.incidentId === null)
      out[`actions.${index}.incidentId`] = 'chooseIncident';
  });
  return out;
}
