import { Anchor, Button, Group, Select, SegmentedControl, Stack, TagsInput, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconChevronLeft, IconChevronRight, IconShieldPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlertResolution, AlertStatus } from '@vigil/contract';
import { alertStatuses } from '@vigil/contract/client';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link, useNavigate } from '../../../lib/router';
import { LoadError } from '../../../components/list';
import { IconButton } from '../../../components/ui/icon-button';
import { formatDate } from '../../../lib/dates';
import { ApiError } from '../../../lib/http';
import { useLiveEvents } from '../../../lib/live';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { useSignedInUser } from '../../../lib/session';
import { AlertStatusBadge, SeverityBadge, GraphButton, graphUrl } from '../../triage';
import {
  addAlertComment,
  alertKeys,
  createIncident,
  fetchAlert,
  linkToIncident,
  updateAlert,
  type AlertDetail,
} from '../api/alerts';
import { useAssignableUsers, useCompanyNames, userLabel } from '../api/hooks';
import { cleanTags, needsResolution, toAlertUpdate, type TriageChange } from '../lib/bulk';
import { neighbours, readQueueOrder } from '../lib/queue-order';
import { shortcutFor } from '../lib/shortcuts';
import { Card, CommentsCard, DetectionCard, HistoryCard, LinkedEventsCard, ObservablesCard } from './alert-sections';
import { DetectionSourceCard } from './detection-source';
import { IncidentModal, type IncidentChoice } from './incident-modal';
import { ResolutionModal } from './resolution-modal';
import { SourceIcon } from './source-icon';
import './alerts.css';
import { useRouteId } from '../../../lib/route-id';

const NOBODY = '';

/** One alert: what it is, what found it, its observables and events, and triage. */
export default function AlertPage() {
  const { t } = useTranslation();
  const { id, valid } = useRouteId();
  const query = useQuery({
    queryKey: alertKeys.detail(id),
    queryFn: ({ signal }) => fetchAlert(id, signal),
    enabled: valid,
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
  const notFound = !valid || (query.error instanceof ApiError && query.error.status === 404);

  if (notFound) {
    return (
      <Stack gap="md">
        <BackLink />
        <Text>{t('alerts.detail.notFound')}</Text>
      </Stack>
    );
  }
  if (query.error) {
    return (
      <Stack gap="md">
        <BackLink />
        <LoadError message={t('alerts.detail.loadFailed')} onRetry={() => void query.refetch()} />
      </Stack>
    );
  }
  if (!query.data) {
    return (
      <Stack gap="md">
        <BackLink />
        <Text c="dimmed">{t('common.loading')}</Text>
      </Stack>
    );
  }
  return <AlertView alert={query.data} />;
}

function BackLink() {
  const { t } = useTranslation();
  const order = readQueueOrder();
  return (
    <Anchor component={Link} to={order?.href ?? '/alerts'} size="sm" className="vigil-back-link">
      <Group gap={4}>
        <IconArrowLeft size={14} />
        {t('alerts.detail.back')}
      </Group>
    </Anchor>
  );
}

function AlertView({ alert }: { alert: AlertDetail }) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mayChange = usePermission({ action: 'change', subject: 'alerts' });
  const mayLinkIncident = usePermission({ action: 'change', subject: 'incidents' });
  const mayAddIncident = usePermission({ action: 'add', subject: 'incidents' });
  const users = useAssignableUsers();
  const companies = useCompanyNames();
  const [asking, setAsking] = useState<'resolved' | 'closed' | null>(null);
  const [incidentOpen, setIncidentOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const order = useMemo(() => neighbours(readQueueOrder(), alert.id), [alert.id]);

  const refetch = () => queryClient.invalidateQueries({ queryKey: alertKeys.detail(alert.id) });

  // Another analyst's change (or a repeat detection) shows without a reload.
  useLiveEvents(['alert.updated'], (event) => {
    if (event.ids.includes(alert.id)) void refetch();
  });

  const change = async (what: Exclude<TriageChange, { kind: 'addToIncident' }>) => {
    setBusy(true);
    try {
      const updated = await updateAlert(alert.id, toAlertUpdate(what, alert.tags));
      queryClient.setQueryData<AlertDetail>(alertKeys.detail(alert.id), (current) =>
        current ? { ...current, ...updated } : current,
      );
      void queryClient.invalidateQueries({ queryKey: ['alerts', 'infinite'] });
      await refetch();
    } catch {
      // The HTTP client has shown what went wrong.
    } finally {
      setBusy(false);
    }
  };

  const setStatus = (status: AlertStatus) => {
    if (status === alert.status) return;
    if (needsResolution(status)) setAsking(status as 'resolved' | 'closed');
    else void change({ kind: 'status', status });
  };

  const pickResolution = (resolution: AlertResolution) => {
    if (asking) void change({ kind: 'status', status: asking, resolution });
    setAsking(null);
  };

  const chooseIncident = async (choice: IncidentChoice) => {
    setBusy(true);
    try {
      if (choice.kind === 'existing') {
        await linkToIncident(choice.incidentId, [alert.id]);
        setIncidentOpen(false);
        await refetch();
        notify({ type: 'success', message: t('alerts.incidentModal.added', { count: 1, id: choice.incidentId }) });
      } else {
        const incident = await createIncident({ title: choice.title, severity: choice.severity, alertIds: [alert.id] });
        setIncidentOpen(false);
        notify({ type: 'success', message: t('alerts.incidentModal.created', { id: incident.id }) });
        void navigate(`/incidents/${incident.id}`);
      }
    } catch (error) {
      if (!(error instanceof ApiError)) notify({ type: 'error', message: t('alerts.bulk.failed') });
    } finally {
      setBusy(false);
    }
  };

  const addComment = async (body: string) => {
    try {
      await addAlertComment(alert.id, body);
      await refetch();
      return true;
    } catch {
      return false;
    }
  };

  // Keys on the page: j/k step through the queue, a/e/r/c triage, g the graph.
  const onKey = useRef<(event: KeyboardEvent) => void>(() => undefined);
  onKey.current = (event: KeyboardEvent) => {
    if (asking || incidentOpen) return;
    const action = shortcutFor(event);
    if (!action) return;
    const go = (to: number | null) => {
      if (to === null) return;
      event.preventDefault();
      void navigate(`/alerts/${to}`);
    };
    if (action === 'next') go(order.next);
    else if (action === 'previous') go(order.previous);
    else if (action === 'graph') {
      event.preventDefault();
      void navigate(graphUrl({ alert: alert.id }));
    } else if (!mayChange) return;
    else if (action === 'assignToMe') void change({ kind: 'assign', assigneeId: me.id });
    else if (action === 'unassign') void change({ kind: 'assign', assigneeId: null });
    else if (action === 'inProgress') setStatus('in_progress');
    else if (action === 'resolve') setStatus('resolved');
    else if (action === 'close') setStatus('closed');
    else if (action === 'addToIncident' && (mayLinkIncident || mayAddIncident)) setIncidentOpen(true);
  };
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey.current(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  const assigneeOptions = [
    { value: NOBODY, label: t('alerts.detail.nobody') },
    ...users.users.map((user) => ({ value: String(user.id), label: userLabel(user, user.id) })),
  ];
  if (alert.assigneeId !== null && !users.byId.has(alert.assigneeId)) {
    assigneeOptions.push({ value: String(alert.assigneeId), label: `#${alert.assigneeId}` });
  }

  return (
    <Stack gap="md" className="vigil-alert-page" data-testid="alert-page">
      <Group justify="space-between" gap="sm">
        <BackLink />
        {order.position !== null && (
          <Group gap={4}>
            <Text size="xs" c="dimmed">
              {t('alerts.detail.position', { position: order.position, total: order.total })}
            </Text>
            {(
              [
                ['previous', 'k', IconChevronLeft, order.previous],
                ['next', 'j', IconChevronRight, order.next],
              ] as const
            ).map(([step, shortcut, StepIcon, id]) => (
              <IconButton
                key={step}
                label={t(`alerts.detail.${step}`)}
                shortcut={shortcut}
                icon={<StepIcon size={16} />}
                disabled={id === null}
                onClick={() => id !== null && void navigate(`/alerts/${id}`)}
              />
            ))}
          </Group>
        )}
      </Group>

      <Group justify="space-between" align="flex-start" gap="md" wrap="wrap">
        <Stack gap={6} style={{ minWidth: 0, flex: '1 1 480px' }}>
          <div className="vigil-alert-page__title">
            <SeverityBadge severity={alert.severity} />
            <AlertStatusBadge status={alert.status} />
            <Text span size="sm" c="dimmed" className="vigil-num">
              #{alert.id}
            </Text>
          </div>
          <Title order={1} className="vigil-page__title" data-testid="alert-title">
            {alert.title}
          </Title>
        </Stack>
        <Group gap="sm">
          <GraphButton of={{ alert: alert.id }} label={t('alerts.detail.openGraph')} />
          {(mayLinkIncident || mayAddIncident) && (
            <Button variant="default" leftSection={<IconShieldPlus size={16} />} onClick={() => setIncidentOpen(true)}>
              {t('alerts.detail.addToIncident')}
            </Button>
          )}
        </Group>
      </Group>

      <div className="vigil-alert-page__grid">
        <Stack gap="md" style={{ minWidth: 0 }}>
          <Card title={t('alerts.detail.summary')} testId="alert-summary">
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} c={alert.description ? undefined : 'dimmed'}>
              {alert.description || t('alerts.detail.noDescription')}
            </Text>
          </Card>
          <ObservablesCard alert={alert} />
          <LinkedEventsCard alert={alert} />
          <DetectionCard alert={alert} />
          <DetectionSourceCard alert={alert} />
          <CommentsCard alert={alert} mayComment={mayChange} onAdd={addComment} />
        </Stack>

        <div className="vigil-alert-page__side">
          <Card title={t('alerts.detail.triage')} testId="alert-triage">
            <Stack gap="sm">
              <div>
                <Text size="xs" fw={600} c="dimmed" mb={4}>
                  {t('alerts.detail.status')}
                </Text>
                <SegmentedControl
                  fullWidth
                  size="xs"
                  value={alert.status}
                  onChange={(value) => setStatus(value as AlertStatus)}
                  disabled={!mayChange || busy}
                  data={alertStatuses.map((status) => ({ value: status, label: t(`triage.alertStatus.${status}`) }))}
                  data-testid="alert-status"
                />
                {alert.resolution && (
                  <Text size="xs" mt={4} data-testid="alert-resolution">
                    {t('alerts.detail.resolution')}: <strong>{t(`triage.resolution.${alert.resolution}`)}</strong>
                  </Text>
                )}
              </div>
              <Group gap="xs" align="flex-end" wrap="nowrap">
                <Select
                  style={{ flex: 1 }}
                  size="xs"
                  label={t('alerts.detail.assignee')}
                  data={assigneeOptions}
                  value={alert.assigneeId === null ? NOBODY : String(alert.assigneeId)}
                  onChange={(value) => void change({ kind: 'assign', assigneeId: value ? Number(value) : null })}
                  searchable
                  allowDeselect={false}
                  disabled={!mayChange || busy}
                  data-testid="alert-assignee"
                />
                {mayChange && alert.assigneeId !== me.id && (
                  <Button size="xs" variant="light" onClick={() => void change({ kind: 'assign', assigneeId: me.id })}>
                    {t('alerts.detail.assignMe')}
                  </Button>
                )}
              </Group>
              <TagsInput
                size="xs"
                label={t('alerts.detail.tags')}
                placeholder={t('alerts.detail.tagsPlaceholder')}
                value={alert.tags}
                onChange={(tags) => {
                  const next = cleanTags(tags);
                  const added = next.filter((tag) => !alert.tags.includes(tag));
                  const removed = alert.tags.filter((tag) => !next.includes(tag));
                  if (added.length > 0) void change({ kind: 'addTags', tags: added });
                  else if (removed.length > 0) void change({ kind: 'removeTags', tags: removed });
                }}
                disabled={!mayChange || busy}
                maxTags={50}
                data-testid="alert-tags"
              />
            </Stack>
          </Card>
          <Card title={t('alerts.detail.details')}>
            <dl className="vigil-facts" data-testid="alert-facts">
              <dt>{t('alerts.detail.score')}</dt>
              <dd className="vigil-num">{alert.score}</dd>
              <dt>{t('alerts.detail.source')}</dt>
              <dd>
                <Group gap={6}>
                  <SourceIcon source={alert.source} />
                  {t(`triage.source.${alert.source}`)}
                </Group>
              </dd>
              {companies.many && (
                <>
                  <dt>{t('alerts.detail.company')}</dt>
                  <dd>{companies.byId.get(alert.companyId) ?? `#${alert.companyId}`}</dd>
                </>
              )}
              <dt>{t('alerts.detail.firstSeen')}</dt>
              <dd className="vigil-num">{formatDate(alert.firstSeen, 'isoDateTimeSeconds')}</dd>
              <dt>{t('alerts.detail.lastSeen')}</dt>
              <dd className="vigil-num">{formatDate(alert.lastSeen, 'isoDateTimeSeconds')}</dd>
              <dt>{t('alerts.detail.count')}</dt>
              <dd className="vigil-num">{alert.count}</dd>
              <dt>{t('alerts.detail.incident')}</dt>
              <dd>
                {alert.incidentId === null ? (
                  <Text span size="sm" c="dimmed">
                    {t('alerts.detail.noIncident')}
                  </Text>
                ) : (
                  <Anchor component={Link} to={`/incidents/${alert.incidentId}`} size="sm">
                    {t('alerts.detail.incidentLink', { id: alert.incidentId })}
                  </Anchor>
                )}
              </dd>
            </dl>
          </Card>
          <HistoryCard alert={alert} users={users} />
        </div>
      </div>

      <ResolutionModal status={asking} count={1} onPick={pickResolution} onClose={() => setAsking(null)} />
      <IncidentModal
        opened={incidentOpen}
        defaultMode={mayLinkIncident ? 'existing' : 'create'}
        allowExisting={mayLinkIncident}
        allowCreate={mayAddIncident}
        defaultTitle={alert.title}
        defaultSeverity={alert.severity}
        busy={busy}
        onChoose={(choice) => void chooseIncident(choice)}
        onClose={() => setIncidentOpen(false)}
      />
    </Stack>
  );
}
