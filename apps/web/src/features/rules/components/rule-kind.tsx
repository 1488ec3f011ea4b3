import { Tabs } from '@mantine/core';
import { IconAdjustments, IconListCheck } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { useLocation, useNavigate } from '../../../lib/router';
import { rulePaths, type RuleKind } from '../api/rules';

/** Where the Suricata threshold.config entries are, beside the signatures. */
export const THRESHOLDS_PATH = `${rulePaths.suricata}/thresholds`;

/** The kind of rule a page is about, read from its address (the three kinds share their pages). */
export function useRuleKind(): RuleKind {
  const { pathname } = useLocation();
  const found = (Object.keys(rulePaths) as RuleKind[]).find(
    (kind) => pathname === rulePaths[kind] || pathname.startsWith(`${rulePaths[kind]}/`),
  );
  return found ?? 'suricata';
}

/** The Suricata signatures and the company's threshold.config: two tabs, each its own address. */
export function SuricataTabs({ active }: { active: 'rules' | 'thresholds' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Tabs
      value={active}
      onChange={(value) =>
        value && value !== active && navigate(value === 'thresholds' ? THRESHOLDS_PATH : rulePaths.suricata)
      }
    >
      <Tabs.List>
        <Tabs.Tab value="rules" leftSection={<IconListCheck size={16} />} data-testid="rules-tab">
          {t('rules.tabs.rules')}
        </Tabs.Tab>
        <Tabs.Tab value="thresholds" leftSection={<IconAdjustments size={16} />} data-testid="thresholds-tab">
          {t('rules.tabs.thresholds')}
        </Tabs.Tab>
      </Tabs.List>
    </Tabs>
  );
}
