import { Anchor, Group, Paper, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { endpoints } from '@vigil/contract/client';
import { LoadError } from '../../../components/list';
import { VirtualTable } from '../../../components/list/virtual-table';
import { call } from '../../../lib/http';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import { alertUrl } from '../../triage';
import { MATCHER_LOG_PATH, matcherKeys } from '../api/matchers';
import { useCommittedActionColumns } from './matcher-log';

const SHOWN = 50;

/** The newest actions one matcher took, each with its outcome; the whole log is a link away. */
export function MatcherActionsTaken({ matcherId }: { matcherId: number }) {
  const { t } = useTranslation();
  const columns = useCommittedActionColumns(false);
  const query = useQuery({
    queryKey: [...matcherKeys.all, 'actions', matcherId],
    queryFn: ({ signal }) =>
      call(endpoints.matchers.actions.list, { query: { pageSize: SHOWN }, body: { matcherId: [matcherId] }, signal }),
  });
  return (
    <Paper p="lg" data-testid="matcher-actions-taken">
      <Group justify="space-between" mb="md">
        <Title order={3} className="vigil-section__title">
          {t('matchers.actionsTaken')}
        </Title>
        <Anchor component={Link} to={`${MATCHER_LOG_PATH}?matcher_id=${matcherId}`} size="sm">
          {t('matchers.tabLog')}
        </Anchor>
      </Group>
      {query.error ? (
        <LoadError message={t('matchers.log.loadFailed')} onRetry={() => void query.refetch()} />
      ) : (
        <VirtualTable
          columns={columns}
          rows={query.data?.results ?? []}
          rowKey={(row) => row.id}
          ariaLabel={t('matchers.actionsTaken')}
          loading={query.isLoading}
          rowHref={(row) => alertUrl(row.alertId)}
          empty={t('matchers.log.empty')}
          height={300}
          testId="matcher-actions-table"
          rowTestId="matcher-action-row"
        />
      )}
    </Paper>
  );
}
