import { Anchor, Text, ThemeIcon, Timeline } from '@mantine/core';
import {
  IconArrowsExchange,
  IconCirclePlus,
  IconFlag,
  IconLink,
  IconLinkOff,
  IconListCheck,
  IconMessage,
  IconPoint,
  IconUserCheck,
} from '@tabler/icons-react';
import type { AlertSeverity, IncidentStatus } from '@vigil/contract';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import { MarkdownView } from '../../../components/ui/markdown-view';
import { formatDate } from '../../../lib/dates';
import { alertUrl, IncidentStatusBadge, SeverityBadge } from '../../triage';
import type { TimelineEntry } from '../api/incidents';
import { useAssignableUsers, userName } from '../api/hooks';

const icons: Record<string, typeof IconPoint> = {
  created: IconCirclePlus,
  alert_linked: IconLink,
  alerts_linked: IconLink,
  alert_unlinked: IconLinkOff,
  status: IconArrowsExchange,
  assignment: IconUserCheck,
  severity: IconFlag,
  comment: IconMessage,
  task: IconListCheck,
};

const numberOf = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

const isStatus = (value: unknown): value is IncidentStatus =>
  typeof value === 'string' && ['open', 'investigating', 'contained', 'resolved', 'closed'].includes(value);
const isSeverity = (value: unknown): value is AlertSeverity =>
  typeof value === 'string' && ['info', 'low', 'medium', 'high', 'critical'].includes(value);

function AlertLink({ id }: { id: number }) {
  return (
    <Anchor component={Link} to={alertUrl(id)} size="sm" className="vigil-incident-mono">
      #{id}
    </Anchor>
  );
}

/** An entry's words, followed by the alert it is about where it names one. */
function WithAlertLink({ text, alertId }: { text: string; alertId: number | null }) {
  return (
    <>
      {text}
      {alertId !== null && (
        <>
          {' '}
          <AlertLink id={alertId} />
        </>
      )}
    </>
  );
}

/** A change of a value: what changed, from the value before to the value after, each shown by `show`. */
function Change({
  what,
  data,
  show,
}: {
  what: string;
  data: TimelineEntry['data'];
  show: (value: unknown) => ReactNode;
}) {
  return (
    <span className="vigil-incident-timeline__change">
      {what}
      {show(data.before)}
      <span aria-hidden>→</span>
      {show(data.after)}
    </span>
  );
}

const statusBadge = (value: unknown) => isStatus(value) && <IncidentStatusBadge status={value} />;
const severityBadge = (value: unknown) => isSeverity(value) && <SeverityBadge severity={value} />;

/** What one entry says, in words and badges. */
function EntryText({ entry }: { entry: TimelineEntry }) {
  const { t } = useTranslation();
  const { byId } = useAssignableUsers();
  const data = entry.data;
  switch (entry.kind) {
    case 'created':
      return <>{t('incidents.timeline.created')}</>;
    case 'alert_linked':
      return <WithAlertLink text={t('incidents.timeline.alertLinked')} alertId={numberOf(data.alertId)} />;
    case 'alerts_linked':
      return <>{t('incidents.timeline.alertsLinked', { count: numberOf(data.count) ?? 0 })}</>;
    case 'alert_unlinked':
      return <WithAlertLink text={t('incidents.timeline.alertUnlinked')} alertId={numberOf(data.alertId)} />;
    case 'status':
      return <Change what={t('incidents.timeline.status')} data={data} show={statusBadge} />;
    case 'severity':
      return <Change what={t('incidents.timeline.severity')} data={data} show={severityBadge} />;
    case 'assignment': {
      const after = numberOf(data.after);
      const name = after === null ? '' : userName(byId.get(after)) || `#${after}`;
      return <>{after === null ? t('incidents.timeline.unassigned') : t('incidents.timeline.assigned', { name })}</>;
    }
    case 'comment':
      return <>{t('incidents.timeline.comment')}</>;
    case 'task':
      return <>{t('incidents.timeline.task', { title: textOf(data.title) })}</>;
    default:
      return <>{entry.kind}</>;
  }
}

/** The incident's history, oldest first: alerts linked, status and assignment changes, comments, tasks. */
export function IncidentTimeline({ entries, footer }: { entries: readonly TimelineEntry[]; footer?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="vigil-incident-timeline" data-testid="incident-timeline">
      <Timeline bulletSize={26} lineWidth={2}>
        {entries.map((entry) => {
          const Icon = icons[entry.kind] ?? IconPoint;
          const comment = entry.kind === 'comment';
          return (
            <Timeline.Item
              key={entry.id}
              data-kind={entry.kind}
              data-testid="timeline-entry"
              bullet={
                <ThemeIcon size={26} radius="xl" variant="light" color={comment ? 'blue' : 'gray'}>
                  <Icon size={14} stroke={1.8} />
                </ThemeIcon>
              }
            >
              <Text size="sm" className="vigil-incident-timeline__head">
                <strong>{entry.username ?? t('incidents.timeline.system')}</strong>{' '}
                <span className="vigil-incident-timeline__what">
                  <EntryText entry={entry} />
                </span>
              </Text>
              <Text size="xs" c="dimmed" mt={2}>
                <time dateTime={entry.createdAt}>{formatDate(entry.createdAt, 'isoDateTimeSeconds')}</time>
              </Text>
              {entry.body && (
                <div className="vigil-incident-timeline__body" data-testid={comment ? 'comment-body' : 'summary-body'}>
                  <MarkdownView source={entry.body} />
                </div>
              )}
            </Timeline.Item>
          );
        })}
      </Timeline>
      {footer}
    </div>
  );
}
