import type { RuleImportAnswer, RuleKind } from '@vigil/contract';
import type { DemoApi } from '../api';
import type { DemoCustomer } from '../scenario';
import { DEMO_SIGMA_RULES } from './sigma';
import { demoSuricataRules } from './suricata';
import { DEMO_YARA_RULES } from './yara';

/** How many rules of each kind the demo stored, and its threshold.config entries. */
export interface DemoRuleCounts {
  suricata: number;
  sigma: number;
  yara: number;
  thresholds: number;
}

/** The demo's rule files of each kind, as the import endpoint takes them. */
export function demoRuleFiles(): Record<RuleKind, { name: string; content: string }[]> {
  return { suricata: demoSuricataRules(), sigma: DEMO_SIGMA_RULES, yara: DEMO_YARA_RULES };
}

/**
 * A customer's threshold.config: Northwind's backup and mail services live under .cloud names, so
 * the signature that notes lookups of that top-level domain is suppressed for its own network.
 */
export function demoThresholds(customer: DemoCustomer): { entry: string; comment: string }[] {
  if (customer.key !== 'northwind') return [];
  return [
    {
      entry: `suppress gen_id 1, sig_id 2027865, track by_src, ip ${customer.netPrefix}.0.0/16`,
      comment: 'Backup and mail delivery services in daily use are .cloud names; the lookups are expected.',
    },
  ];
}

/**
 * Imports the demo's rules for all companies (as the provider's administrator) and each
 * customer's threshold.config entries, so that the traffic sent afterwards fires them. A rule the
 * store refuses or cannot run is a broken demo: it throws.
 */
export async function importDemoRules(
  api: DemoApi,
  customers: readonly { customer: DemoCustomer; companyId: number }[],
): Promise<DemoRuleCounts> {
  const counts: DemoRuleCounts = { suricata: 0, sigma: 0, yara: 0, thresholds: 0 };
  for (const [kind, files] of Object.entries(demoRuleFiles()) as [RuleKind, { name: string; content: string }[]][]) {
    const answer = await api.post<RuleImportAnswer>(`/api/rules/${kind}/import/`, { files });
    if (answer.rejected.length > 0 || answer.unsupported > 0) {
      throw new Error(`the demo's ${kind} rules were refused: ${JSON.stringify(answer)}`);
    }
    counts[kind] = answer.created + answer.updated + answer.unchanged;
  }
  for (const { customer, companyId } of customers) {
    for (const threshold of demoThresholds(customer)) {
      await api.post('/api/rules/suricata/thresholds/', { ...threshold, company_id: companyId });
      counts.thresholds++;
    }
  }
  return counts;
}
