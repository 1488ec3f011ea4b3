import {
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Grid,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconEdit } from '@tabler/icons-react';
import type { AlertSeverity } from '@vigil/contract';
import { alertSeverityValues } from '@vigil/contract/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import { FormError } from '../../../components/form';
import { LoadError } from '../../../components/list';
import { NotFoundPage } from '../../../components/pages/not-found-page';
import { MarkdownView } from '../../../components/ui/markdown-view';
import { formatDate } from '../../../lib/dates';
import { ApiError } from '../../../lib/http';
import { useLiveEvents } from '../../../lib/live';
import { usePermission } from '../../../lib/permissions';
import { useSignedInUser } from '../../../lib/session';
import { GraphButton, IncidentStatusBadge, SeverityBadge } from '../../triage';
import { incidentKeys, updateIncident, type IncidentDetail, type IncidentUpdate } from '../api/incidents';
import { useAssignableUsers, useIncident, useIncidentRefresh, userName } from '../api/hooks';
import { useNow } from '../lib/use-now';
import { AssigneeSelect } from './assignee-select';
import { CommentEditor } from './comment-editor';
import { EditIncidentModal } from './edit-incident-modal';
import { IncidentTimeline } from './incident-timeline';
import { LinkedAlerts } from './linked-alerts';
import { ObservablesPanel } from './observables-panel';
import { SlaTimerCard } from './sla-timer';
import { StatusControl } from './status-control';
import { TasksPanel } from './tasks-panel';
import './incidents.css';
import { useRouteId } from '../../../lib/route-id';

function Section({
  title,
  extra,
  children,
  testId,
}: {
  title: string;
  extra?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Paper p="lg" className="vigil-incident-section" data-testid={testId}>
      <Group justify="space-between" align="center" mb="md" gap="sm">
        <Title order={3} className="vigil-section__title">
          {title}
        </Title>
        {extra}
      </Group>
      {children}
    </Paper>
  );
}

function Property({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="vigil-incident-property">
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={4}>
        {label}
      </Text>
      {children}
    </div>
  );
}

/** Severity and assignee, changed in place when the user may; company and dates. */
function Properties({ incident, editable }: { incident: IncidentDetail; editable: boolean }) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const { byId } = useAssignableUsers();
  const refresh = useIncidentRefresh(incident.id);
  const change = useMutation({
    mutationFn: (patch: IncidentUpdate) => updateIncident(incident.id, patch),
    onSuccess: () => refresh(),
  });
  const company = me.companies.find((c) => c.id === incident.companyId);
  const assignee = incident.assigneeId === null ? undefined : byId.get(incident.assigneeId);
  return (
    <Stack gap="md">
      <SimpleGrid cols={2} spacing="md" verticalSpacing="md">
        <Property label={t('incidents.fields.severity')}>
          {editable ? (
            <Select
              size="sm"
              aria-label={t('incidents.fields.severity')}
              data={[...alertSeverityValues]
                .reverse()
                .map((value) => ({ value, label: t(`triage.severity.${value}`) }))}
              value={incident.severity}
              allowDeselect={false}
              onChange={(value) =>
                value && value !== incident.severity && change.mutate({ severity: value as AlertSeverity })
              }
              data-testid="incident-severity"
            />
          ) : (
            <SeverityBadge severity={incident.severity} />
          )}
        </Property>
        <Property label={t('incidents.fields.assignee')}>
          {editable ? (
            <AssigneeSelect
              size="sm"
              aria-label={t('incidents.fields.assignee')}
              companyId={incident.companyId}
              value={incident.assigneeId}
              onChange={(value) => value !== incident.assigneeId && change.mutate({ assigneeId: value })}
              data-testid="incident-assignee"
            />
          ) : (
            <Text size="sm">{assignee ? userName(assignee) : t('triage.unassigned')}</Text>
          )}
        </Property>
        <Property label={t('incidents.fields.company')}>
          <Text size="sm">{company?.name ?? `#${incident.companyId}`}</Text>
        </Property>
        <Property label={t('incidents.fields.alerts')}>
          <Text size="sm">{incident.alertCount}</Text>
        </Property>
        <Property label={t('incidents.fields.created')}>
          <Text size="sm" className="vigil-incident-mono">
            {formatDate(incident.createdAt, 'isoDateTime')}
          </Text>
        </Property>
        <Property label={t('incidents.fields.updated')}>
          <Text size="sm" className="vigil-incident-mono">
            {formatDate(incident.updatedAt, 'isoDateTime')}
          </Text>
        </Property>
      </SimpleGrid>
      {incident.groupKey && (
        <Text size="xs" c="dimmed">
          {t('incidents.fields.groupedBy', { key: incident.groupKey })}
        </Text>
      )}
      <FormError error={change.error} />
    </Stack>
  );
}

/** Both SLA timers, counting down each second. */
function SlaTimers({ incident }: { incident: IncidentDetail }) {
  const now = useNow(1000);
  return (
    <Stack gap="lg" data-testid="incident-sla">
      <SlaTimerCard which="acknowledge" timer={incident.sla.acknowledge} now={now} />
      <SlaTimerCard which="resolve" timer={incident.sla.resolve} now={now} />
    </Stack>
  );
}

function Loading() {
  return (
    <Stack gap="lg" aria-busy>
      <Skeleton height={28} width="40%" />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Skeleton height={360} radius="md" />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Skeleton height={360} radius="md" />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** One incident: status workflow, severity and assignee, SLA timers, alerts, timeline with comments, tasks, observables. */
export default function IncidentPage() {
  const { t } = useTranslation();
  const { id, valid } = useRouteId();
  const query = useIncident(id);
  const queryClient = useQueryClient();
  const editable = usePermission({ action: 'change', subject: 'incidents' });
  const [editing, setEditing] = useState(false);

  // Someone else changed it (or an alert joined it): read it again.
  useLiveEvents(
    ['incident.updated'],
    (event) => {
      if (event.ids.includes(id)) {
        void queryClient.invalidateQueries({ queryKey: incidentKeys.detail(id) });
        void queryClient.invalidateQueries({ queryKey: incidentKeys.alerts(id) });
      }
    },
    valid,
  );

  if (!valid || (query.error instanceof ApiError && query.error.status === 404)) return <NotFoundPage />;
  const incident = query.data;

  return (
    <Stack gap="lg" className="vigil-incident-page" data-testid="incident-page">
      <Breadcrumbs>
        <Anchor component={Link} to="/incidents" size="sm">
          {t('incidents.title')}
        </Anchor>
        <Text size="sm" c="dimmed">
          #{id}
        </Text>
      </Breadcrumbs>
      {query.error && !incident && (
        <LoadError message={t('incidents.detail.loadFailed')} onRetry={() => void query.refetch()} />
      )}
      {!incident && !query.error && <Loading />}
      {incident && (
        <>
          <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
            <Stack gap={6} className="vigil-incident-page__heading">
              <Group gap="xs" wrap="wrap">
                <IncidentStatusBadge status={incident.status} />
                <SeverityBadge severity={incident.severity} />
                {!editable && (
                  <Badge variant="light" color="gray" size="sm" data-testid="read-only">
                    {t('incidents.detail.readOnly')}
                  </Badge>
                )}
              </Group>
              <Title order={1} className="vigil-page__title" data-testid="incident-heading">
                <span className="vigil-incident-page__id">#{incident.id}</span> {incident.title}
              </Title>
            </Stack>
            <Group gap="sm">
              <GraphButton of={{ incident: incident.id }} label={t('incidents.detail.openGraph')} testId="open-graph" />
              {editable && (
                <Button
                  variant="default"
                  leftSection={<IconEdit size={16} />}
                  onClick={() => setEditing(true)}
                  data-testid="incident-edit"
                >
                  {t('incidents.edit.button')}
                </Button>
              )}
              {editable && <StatusControl incident={incident} />}
            </Group>
          </Group>

          <Grid gap="lg">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <Stack gap="lg">
                <Section title={t('incidents.detail.description')} testId="incident-description">
                  {incident.description.trim() ? (
                    <MarkdownView source={incident.description} />
                  ) : (
                    <Text size="sm" c="dimmed">
                      {t('incidents.detail.noDescription')}
                    </Text>
                  )}
                </Section>
                <Section
                  title={t('incidents.detail.alerts')}
                  extra={
                    <Badge variant="light" color="gray">
                      {incident.alertCount}
                    </Badge>
                  }
                >
                  <LinkedAlerts incident={incident} editable={editable} />
                </Section>
                <Section title={t('incidents.detail.timeline')}>
                  <IncidentTimeline
                    entries={incident.timeline}
                    footer={editable ? <CommentEditor incidentId={incident.id} /> : null}
                  />
                </Section>
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <Stack gap="lg">
                <Section title={t('incidents.detail.sla')}>
                  <SlaTimers incident={incident} />
                </Section>
                <Section title={t('incidents.detail.properties')}>
                  <Properties incident={incident} editable={editable} />
                </Section>
                <Section
                  title={t('incidents.detail.tasks')}
                  extra={
                    <Badge variant="light" color="gray">
                      {incident.tasks.length}
                    </Badge>
                  }
                >
                  <TasksPanel incident={incident} editable={editable} />
                </Section>
                <Section title={t('incidents.detail.observables')}>
                  <ObservablesPanel observables={incident.observables} companyId={incident.companyId} />
                </Section>
              </Stack>
            </Grid.Col>
          </Grid>
          {editing && <EditIncidentModal incident={incident} onClose={() => setEditing(false)} />}
        </>
      )}
    </Stack>
  );
}
