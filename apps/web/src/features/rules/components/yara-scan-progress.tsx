import { Alert, Progress, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { usePermission } from '../../../lib/permissions';
import { fetchYaraScan, ruleKeys } from '../api/rules';

/** How often the progress is read while a rescan runs or is due, and while none is. */
const BUSY_POLL_MS = 3_000;
const IDLE_POLL_MS = 30_000;

/** The rescan of the warehouse with the enabled YARA rules, while one runs or is due (for those who see the warehouse). */
export function YaraScanProgress() {
  const { t } = useTranslation();
  const mayView = usePermission({ action: 'view', subject: 'warehouse' });
  const { data } = useQuery({
    queryKey: ruleKeys.scan,
    queryFn: ({ signal }) => fetchYaraScan(signal),
    enabled: mayView,
    refetchInterval: (query) => (query.state.data?.state === 'idle' ? IDLE_POLL_MS : BUSY_POLL_MS),
  });
  if (!data || data.state === 'idle') return null;
  const done = data.scanned + data.skipped;
  const values = {
    rules: data.enabledRules,
    done: done.toLocaleString(),
    total: data.total.toLocaleString(),
  };
  return (
    <Alert color="blue" variant="light" data-testid="yara-scan-progress" data-state={data.state}>
      <Stack gap={6}>
        <Text size="sm">{t(data.state === 'running' ? 'rules.scan.running' : 'rules.scan.pending', values)}</Text>
        <Progress
          value={data.total === 0 ? 0 : (done / data.total) * 100}
          animated={data.state === 'running'}
          aria-label={t('rules.scan.running', values)}
        />
        {data.skipped > 0 && (
          <Text size="xs" c="dimmed">
            {t('rules.scan.skipped', { count: data.skipped })}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
