import { Button, Menu } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { SearchBody } from '@vigil/contract';
import { useState } from 'react';
import type { Camelize } from '../../../lib/http';
import { useTranslation } from '../../../lib/i18n';
import { useSignedInUser } from '../../../lib/session';
import { exportSearch } from '../api/search';

/**
 * Export of a search's hits as CSV or JSON lines, shown only to holders of the raw_export privilege
 * (raw events leave the console). `disabled` while the search cannot run or found nothing.
 */
export function SearchExportMenu({ body, disabled }: { body: Camelize<SearchBody>; disabled: boolean }) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const [exporting, setExporting] = useState(false);
  if (!(me.isSuperuser || me.privilegedSettings.raw_export === true)) return null;
  const download = (format: 'csv' | 'json') => {
    setExporting(true);
    exportSearch(body, format)
      .catch(() => undefined)
      .finally(() => setExporting(false));
  };
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          leftSection={<IconDownload size={16} />}
          loading={exporting}
          disabled={disabled}
          data-testid="search-export"
        >
          {t('search.export')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => download('csv')} data-testid="search-export-csv">
          {t('search.exportCsv')}
        </Menu.Item>
        <Menu.Item onClick={() => download('json')} data-testid="search-export-json">
          {t('search.exportJson')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
