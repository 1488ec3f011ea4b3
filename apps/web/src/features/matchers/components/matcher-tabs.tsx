import { Tabs } from '@mantine/core';
import { IconHistory, IconListCheck } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { useNavigate } from '../../../lib/router';
import { MATCHER_LOG_PATH, MATCHERS_PATH } from '../api/matchers';

/** The matchers and what they did: two tabs, each its own address. */
export function MatcherTabs({ active }: { active: 'matchers' | 'log' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Tabs
      value={active}
      onChange={(value) => value && value !== active && navigate(value === 'log' ? MATCHER_LOG_PATH : MATCHERS_PATH)}
    >
      <Tabs.List>
        <Tabs.Tab value="matchers" leftSection={<IconListCheck size={16} />} data-testid="matchers-tab">
          {t('matchers.tabMatchers')}
        </Tabs.Tab>
        <Tabs.Tab value="log" leftSection={<IconHistory size={16} />} data-testid="matcher-log-tab">
          {t('matchers.tabLog')}
        </Tabs.Tab>
      </Tabs.List>
    </Tabs>
  );
}
