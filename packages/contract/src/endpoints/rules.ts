import { endpoint, idParams, listEndpoints, noContent, permission, publicAccess } from '../endpoint';
import {
  ruleBulkAnswerSchema,
  ruleBulkSchema,
  ruleDetailSchema,
  ruleDiffQuerySchema,
  ruleDiffSchema,
  ruleFiltersSchema,
  ruleImportAnswerSchema,
  ruleImportSchema,
  ruleSchema,
  ruleTestAnswerSchema,
  ruleTestSchema,
  suricataExportSchema,
  suricataThresholdCreateSchema,
  suricataThresholdFiltersSchema,
  suricataThresholdSchema,
  suricataThresholdUpdateSchema,
  type RuleKind,
} from '../rules';

const names: Record<RuleKind, string> = { suricata: 'Suricata signature', sigma: 'Sigma rule', yara: 'YARA rule' };

/** The endpoints every kind of rule has, under /api/rules/<kind>/ and its `rules/<kind>` permissions. */
function ruleKindEndpoints<const K extends RuleKind>(kind: K) {
  const base = `/api/rules/${kind}/` as const;
  const tag = `rules/${kind}`;
  const can = (action: string) => permission(`rules/${kind}`, action);
  const noun = names[kind];
  return {
    ...listEndpoints({
      base,
      tag,
      noun,
      item: ruleSchema,
      filters: ruleFiltersSchema,
      access: can('view'),
      orderings: ['updated_at', 'created_at', 'title', 'rule_key', 'level', 'id'],
      defaultOrdering: ['-updated_at'],
    }),
    get: endpoint({
      method: 'GET',
      path: `${base}:id/`,
      summary: `Read a ${noun}`,
      description:
        'Every parsed field, the source, whether it runs for the caller’s company, its hits over the last 30 days ' +
        'and its revisions.',
      tag,
      access: can('view'),
      params: idParams,
      responses: { 200: ruleDetailSchema },
    }),
    diff: endpoint({
      method: 'GET',
      path: `${base}:id/diff/`,
      summary: `Compare two revisions of a ${noun}`,
      description: 'A unified diff of the sources of revisions `from` and `to` (by default the last two).',
      tag,
      access: can('view'),
      params: idParams,
      query: ruleDiffQuerySchema,
      responses: { 200: ruleDiffSchema },
    }),
    bulk: endpoint({
      method: 'POST',
      path: `${base}bulk/`,
      summary: `Turn ${noun}s on or off`,
      description:
        'By `ids` or by the list `filters`. Staff who see every company change the rules themselves; anyone else ' +
        'changes the rules of their companies, and turns rules for all companies off (or on again) for their own ' +
        'company. With `company_id`, rules for all companies are turned off or on for that company only. ' +
        'Unsupported rules cannot be turned on.',
      tag,
      access: can('change'),
      body: ruleBulkSchema,
      responses: { 200: ruleBulkAnswerSchema },
    }),
    remove: endpoint({
      method: 'DELETE',
      path: `${base}:id/`,
      summary: `Delete a ${noun}`,
      description:
        'The rule, its revisions and its hit counts. Alerts it raised stay. Rules for all companies are deleted ' +
        'by staff who see every company; anyone else deletes their own company’s rules (and turns the others off).',
      tag,
      access: can('delete'),
      params: idParams,
      responses: { 204: noContent },
    }),
    test: endpoint({
      method: 'POST',
      path: `${base}test/`,
      summary: `Try a ${noun} on a sample`,
      description:
        kind === 'yara'
          ? 'Compiles the rule text and scans the given file (base64, up to 10 MB) with it. Nothing is stored.'
          : kind === 'sigma'
            ? 'Compiles the rule text and evaluates it on one endpoint event (EVTX-JSON, ECS or flat Windows ' +
              'JSON), as the Sigma stage would. Nothing is stored.'
            : 'Parses the signature and tells whether an EVE alert record (one JSON line) is one of its alerts ' +
              '(gid, sid and rev). Suricata matches packets on the sensor; this checks the rule and its attribution.',
      tag,
      access: can('view'),
      readsOnly: true,
      body: ruleTestSchema,
      responses: { 200: ruleTestAnswerSchema },
    }),
    import: endpoint({
      method: 'POST',
      path: `${base}import/`,
      summary: `Import ${noun}s`,
      description:
        'JSON `{files: [{name, content}], company_id}`; a file may hold many rules. A rule whose key is known is ' +
        'updated when its text changed (a new revision) and left alone otherwise. Rules the engine cannot run are ' +
        'stored disabled with the reason; rules that cannot be read are answered in `rejected` with the file, line ' +
        'and reason. Staff who see every company import rules for all companies unless `company_id` names one; ' +
        'anyone else imports for their own company. A file over 5 MB, imports over 20 MB and files that are not ' +
        'text are refused with 400 and nothing is stored.',
      tag,
      access: can('import'),
      body: ruleImportSchema,
      responses: { 200: ruleImportAnswerSchema },
    }),
  };
}

const suricataTag = 'rules/suricata';
const suricataCan = (action: string) => permission('rules/suricata', action);

/** The entries of each company's Suricata threshold.config, and the ruleset sensors fetch. */
const suricataExtras = {
  thresholds: {
    ...listEndpoints({
      base: '/api/rules/suricata/thresholds/',
      tag: suricataTag,
      noun: 'threshold.config entry',
      item: suricataThresholdSchema,
      filters: suricataThresholdFiltersSchema,
      access: suricataCan('view'),
      orderings: ['created_at', 'id'],
      defaultOrdering: ['-created_at'],
    }),
    create: endpoint({
      method: 'POST',
      path: '/api/rules/suricata/thresholds/',
      summary: 'Add a threshold.config entry',
      description:
        'A `suppress`, `threshold`, `event_filter` or `rate_filter` line in threshold.config syntax, for the ' +
        'caller’s company unless `company_id` names another in scope.',
      tag: suricataTag,
      access: suricataCan('add'),
      body: suricataThresholdCreateSchema,
      responses: { 201: suricataThresholdSchema },
    }),
    update: endpoint({
      method: 'PATCH',
      path: '/api/rules/suricata/thresholds/:id/',
      summary: 'Change a threshold.config entry',
      tag: suricataTag,
      access: suricataCan('change'),
      params: idParams,
      body: suricataThresholdUpdateSchema,
      responses: { 200: suricataThresholdSchema },
    }),
    remove: endpoint({
      method: 'DELETE',
      path: '/api/rules/suricata/thresholds/:id/',
      summary: 'Delete a threshold.config entry',
      tag: suricataTag,
      access: suricataCan('delete'),
      params: idParams,
      responses: { 204: noContent },
    }),
  },
  export: endpoint({
    method: 'GET',
    path: '/api/rules/suricata/export/',
    summary: 'Fetch the Suricata ruleset of a sensor’s company',
    description:
      'Sent with `Authorization: Bearer <ingest key>`. The enabled rules for the key’s company (its own and ' +
      'those for all companies it has not turned off) as one rules file, and its threshold.config. The answer ' +
      'carries a strong ETag; `If-None-Match` with it answers 304 while nothing changed.',
    tag: suricataTag,
    access: publicAccess,
    ingestKey: true,
    responses: { 200: suricataExportSchema, 304: noContent },
  }),
};

/** Detection rules: Suricata signatures, Sigma rules and YARA rules, one store (docs/detection-rules.md). */
export const ruleEndpoints = {
  suricata: { ...ruleKindEndpoints('suricata'), ...suricataExtras },
  sigma: ruleKindEndpoints('sigma'),
  yara: ruleKindEndpoints('yara'),
};
