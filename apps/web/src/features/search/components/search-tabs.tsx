import { Tabs } from '@mantine/core';
import { IconBookmark, IconFileReport, IconSearch } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { usePermission } from '../../../lib/permissions';
import { useNavigate } from '../../../lib/router';

const paths = { search: '/search', saved: '/searches', reports: '/searches/reports' } as const;
type SearchTab = keyof typeof paths;

/** Search, saved searches and their reports: three tabs, each its own address. */
export function SearchTabs({ active }: { active: SearchTab }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mayReadReports = usePermission({ action: 'view', subject: 'search/reports' });
  return (
    <Tabs value={active} onChange={(value) => value && value !== active && navigate(paths[value as SearchTab])}>
      <Tabs.List>
        <Tabs.Tab value="search" leftSection={<IconSearch size={16} />} data-testid="search-tab">
          {t('search.tabs.search')}
        </Tabs.Tab>
        <Tabs.Tab value="saved" leftSection={<IconBookmark size={16} />} data-testid="saved-searches-tab">
          {t('search.tabs.saved')}
        </Tabs.Tab>
        {mayReadReports && (
          <Tabs.Tab value="reports" leftSection={<IconFileReport size={16} />} data-testid="search-reports-tab">
            {t('search.tabs.reports')}
          </Tabs.Tab>
        )}
      </Tabs.List>
    </Tabs>
  );
}
