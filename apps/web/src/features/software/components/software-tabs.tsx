import { Tabs } from '@mantine/core';
import { IconApps, IconVersions } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { usePermission } from '../../../lib/permissions';
import { useNavigate } from '../../../lib/router';
import { SOFTWARE_PATH, VERSIONS_PATH } from '../api/software';

/** Products and their versions are browsed together: two tabs, each its own address. */
export function SoftwareTabs({ active }: { active: 'products' | 'versions' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mayViewVersions = usePermission({ action: 'view', subject: 'software/versions' });
  if (!mayViewVersions) return null;
  return (
    <Tabs
      value={active}
      onChange={(value) => value && value !== active && navigate(value === 'versions' ? VERSIONS_PATH : SOFTWARE_PATH)}
    >
      <Tabs.List>
        <Tabs.Tab value="products" leftSection={<IconApps size={16} />} data-testid="software-products-tab">
          {t('software.tabProducts')}
        </Tabs.Tab>
        <Tabs.Tab value="versions" leftSection={<IconVersions size={16} />} data-testid="software-versions-tab">
          {t('software.tabVersions')}
        </Tabs.Tab>
      </Tabs.List>
    </Tabs>
  );
}
