import { Stack, Tooltip } from '@mantine/core';
import { IconKeyboard, IconRefresh } from '@tabler/icons-react';
import { lazy, Suspense, useMemo, useRef } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { LoadError } from '../../../components/list/list-error';
import { IconButton } from '../../../components/ui/icon-button';
import { PageHeader } from '../../../components/ui/page-header';
import { useAfterFirstPaint } from '../../../lib/after-paint';
import { useLiveStatus } from '../../../lib/live';
import { AlertFilters } from './alert-filters';
import { AlertsTable } from './queue/alerts-table';
import { useAlertQueue } from './queue/use-alert-queue';
import { useTriageActions } from './queue/use-triage-actions';
import './alerts.css';

// The dialogs and the bulk bar (shown once rows are ticked) wait for a user's action: their code
// arrives after the queue is drawn.
const AlertsDialogs = lazy(async () => ({ default: (await import('./queue/alerts-dialogs')).AlertsDialogs }));
const AlertsBulkBar = lazy(async () => ({ default: (await import('./queue/alerts-bulk-bar')).AlertsBulkBar }));

/** Alerts → the triage queue: filters in the URL, a virtualised table, bulk actions, live arrivals, shortcuts. */
export default function AlertsPage() {
  const { t, i18n } = useTranslation();
  const liveStatus = useLiveStatus();
  const searchRef = useRef<HTMLInputElement>(null);
  // The closed dialogs (five Mantine modals) mount just after the first rows are painted.
  const painted = useAfterFirstPaint();
  const queue = useAlertQueue();
  const actions = useTriageActions(queue, searchRef);
  const { count } = queue;
  const numberFormat = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);

  return (
    <Stack gap="sm" className="vigil-list-page vigil-alerts-page">
      <PageHeader
        title={t('alerts.queue.title')}
        subtitle={
          <span data-testid="alerts-count" data-count={count ?? ''}>
            {count === undefined
              ? t('alerts.queue.counting')
              : t('alerts.queue.count', { total: numberFormat.format(count) })}
          </span>
        }
        actions={
          <>
            <Tooltip
              label={
                liveStatus === 'open'
                  ? t('alerts.queue.live')
                  : liveStatus === 'connecting'
                    ? t('alerts.queue.liveConnecting')
                    : t('alerts.queue.liveOff')
              }
            >
              <span className="vigil-live-dot" data-status={liveStatus} aria-label={t('alerts.queue.live')}>
                {t('alerts.queue.live')}
              </span>
            </Tooltip>
            <IconButton
              size="lg"
              label={t('alerts.queue.shortcuts')}
              icon={<IconKeyboard size={18} />}
              onClick={() => actions.setDialog({ kind: 'help' })}
            />
            <IconButton
              size="lg"
              label={t('alerts.queue.refresh')}
              icon={<IconRefresh size={18} />}
              onClick={() => void queue.showNew()}
              loading={queue.queue.isFetching && !queue.queue.isLoadingMore}
            />
          </>
        }
      />

      <AlertFilters list={queue.list} searchRef={searchRef} />

      {queue.queue.error !== null && queue.queue.error !== undefined && (
        <LoadError message={t('alerts.queue.loadFailed')} onRetry={() => void queue.queue.refresh()} />
      )}

      {actions.mayBulk && painted && (
        <Suspense fallback={null}>
          <AlertsBulkBar queue={queue} actions={actions} />
        </Suspense>
      )}

      <AlertsTable queue={queue} selectable={actions.mayBulk} numberFormat={numberFormat} onOpen={actions.openAlert} />

      {painted && (
        <Suspense fallback={null}>
          <AlertsDialogs actions={actions} />
        </Suspense>
      )}
    </Stack>
  );
}
