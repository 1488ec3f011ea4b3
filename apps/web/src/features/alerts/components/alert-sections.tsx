import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Collapse,
  Group,
  Stack,
  Text,
  Textarea,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import { CopyButton } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { JsonView } from '../../../components/ui/json-view';
import { Panel as Card } from '../../../components/ui/panel';
import { formatDate } from '../../../lib/dates';
import { valueLabel } from '../../../lib/i18n';
import { alertKeys, fetchLinkedEvents, type AlertDetail } from '../api/alerts';
import { userLabel, type useAssignableUsers } from '../api/hooks';
import { ruleMetadataItems } from '../../triage';
import { mitreUrl, pivotOf } from '../lib/pivots';
import { useAssetLookup } from '../../assets/api/asset-lookup';
import { AssetLink } from '../../assets/components/asset-link';
import { EmployeeLink } from '../../employees/components/employee-link';

/** A titled panel of the alert page. */
export { Card };

/** What found the alert: the rule (with what it says of itself) or the indicator, and the ATT&CK tactics and techniques. */
export function DetectionCard({ alert }: { alert: AlertDetail }) {
  const { t } = useTranslation();
  const d = alert.detection as Record<string, unknown>;
  const text = (key: string) => (typeof d[key] === 'string' || typeof d[key] === 'number' ? String(d[key]) : null);
  const isRule = d.type === 'rule';
  return (
    <Card title={t('alerts.detail.detection')} testId="alert-detection">
      <dl className="vigil-facts">
        <dt>{t('alerts.detail.detectionKind')}</dt>
        <dd>{isRule ? `${t('alerts.detail.rule')} · ${text('engine') ?? ''}` : t('alerts.detail.indicator')}</dd>
        {isRule ? (
          <>
            <dt>{t('alerts.detail.rule')}</dt>
            <dd>
              <span className="vigil-mitre">
                {text('ruleId')}
                {text('revision') ? ` rev ${text('revision')}` : ''}
              </span>
              {text('name') && <Text size="sm">{text('name')}</Text>}
            </dd>
            {ruleMetadataItems(d.metadata, t).map(([label, value]) => (
              <div key={label} style={{ display: 'contents' }} data-testid="alert-rule-metadata">
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </>
        ) : (
          <>
            <dt>{t('alerts.detail.indicator')}</dt>
            <dd>
              <span className="vigil-mitre">
                {text('indicatorType')}: {text('value')}
              </span>
            </dd>
          </>
        )}
        <dt>{t('alerts.detail.mitre')}</dt>
        <dd>
          {alert.mitre.length === 0 ? (
            <Text span size="sm" c="dimmed">
              {t('alerts.detail.noMitre')}
            </Text>
          ) : (
            <Group gap={6}>
              {alert.mitre.map((technique) => {
                const href = mitreUrl(technique);
                return href ? (
                  <Anchor
                    key={technique}
                    href={href}
                    target="_blank"
                    rel="noopener noreferrer"
                    size="sm"
                    className="vigil-mitre"
                  >
                    {technique} <IconExternalLink size={12} />
                  </Anchor>
                ) : (
                  <span key={technique} className="vigil-mitre">
                    {technique}
                  </span>
                );
              })}
            </Group>
          )}
        </dd>
      </dl>
    </Card>
  );
}

/** The alert's observables with a one-click pivot into the event pages. */
export function ObservablesCard({ alert }: { alert: AlertDetail }) {
  const { t } = useTranslation();
  // Each host and address links to the asset it was when the alert was last seen.
  const assets = useAssetLookup({
    companyId: alert.companyId,
    at: alert.lastSeen,
    ips: alert.observables.filter((o) => o.kind === 'ip').map((o) => o.value),
    hosts: alert.observables.filter((o) => o.kind === 'host').map((o) => o.value),
  });
  return (
    <Card title={t('alerts.detail.observables')} testId="alert-observables">
      {alert.observables.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('alerts.detail.noObservables')}
        </Text>
      ) : (
        <table className="vigil-observables">
          <thead>
            <tr>
              <th>{t('alerts.detail.observableKind')}</th>
              <th>{t('alerts.detail.observableValue')}</th>
              <th>{t('alerts.detail.observableRole')}</th>
              <th aria-label={t('alerts.detail.pivot')} />
            </tr>
          </thead>
          <tbody>
            {alert.observables.map((observable, index) => {
              const pivot = pivotOf(observable.kind, observable.value);
              return (
                <tr key={`${observable.kind}:${observable.value}:${index}`}>
                  <td>
                    <Badge variant="light" color="gray" size="sm" radius="sm" tt="none" data-kind={observable.kind}>
                      {valueLabel('triage.observableKind', observable.kind)}
                    </Badge>
                  </td>
                  <td className="vigil-observables__value">
                    <Group gap={4} wrap="nowrap">
                      <span>{observable.value}</span>
                      <AssetLink
                        asset={assets.get(`${observable.kind}:${observable.value}`)}
                        testId={`observable-asset-${index}`}
                      />
                      {(observable.kind === 'email' || observable.kind === 'user') && (
                        <EmployeeLink
                          companyId={alert.companyId}
                          {...(observable.kind === 'email'
                            ? { email: observable.value }
                            : { account: observable.value })}
                        />
                      )}
                      <CopyButton value={observable.value} timeout={1500}>
                        {({ copied, copy }) => (
                          <Tooltip label={copied ? t('common.copied') : t('common.copy')}>
                            <ActionIcon
                              variant="subtle"
                              size="sm"
                              color="gray"
                              onClick={copy}
                              aria-label={t('common.copy')}
                            >
                              {copied ? <IconCheck size={13} /> : <IconCopy size={13} />}
                            </ActionIcon>
                          </Tooltip>
                        )}
                      </CopyButton>
                    </Group>
                  </td>
                  <td>
                    <Text span size="xs" c="dimmed">
                      {observable.role ?? ''}
                    </Text>
                  </td>
                  <td>
                    {pivot && (
                      <Button
                        component={Link}
                        to={pivot.href}
                        size="compact-xs"
                        variant="light"
                        rightSection={<IconChevronRight size={12} />}
                        data-testid={`pivot-${observable.kind}-${index}`}
                      >
                        {t(`alerts.detail.pivotTo.${pivot.target}`)}
                      </Button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </Card>
  );
}

/** A short line about one event: the fields an analyst reads first. */
function eventSummary(kind: string, event: Record<string, unknown>): string {
  const s = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
  if (kind === 'network') {
    const alert = (event.alert ?? null) as Record<string, unknown> | null;
    const flow = `${s(event.srcIp)}${event.srcPort ? `:${s(event.srcPort)}` : ''} → ${s(event.destIp)}${event.destPort ? `:${s(event.destPort)}` : ''}`;
    return [s(event.eventType), s(event.proto), flow, alert ? s(alert.signature) : ''].filter(Boolean).join(' · ');
  }
  if (kind === 'endpoint') {
    const host = (event.host ?? null) as Record<string, unknown> | null;
    const process = (event.process ?? null) as Record<string, unknown> | null;
    return [host ? s(host.name) : '', s(event.action), process ? s(process.commandLine) || s(process.name) : '']
      .filter(Boolean)
      .join(' · ');
  }
  return [s(event.sender), s(event.subject)].filter(Boolean).join(' · ');
}

/** The linked events with their raw records, fetched when the page opens. */
export function LinkedEventsCard({ alert }: { alert: AlertDetail }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: alertKeys.events(alert.id),
    queryFn: ({ signal }) => fetchLinkedEvents(alert.id, signal),
  });
  const [open, setOpen] = useState<string | null>(null);
  const results = query.data?.results ?? [];
  const first = results[0];
  const shownKey = open ?? (first ? `${first.kind}:${first.id}` : null);
  return (
    <Card
      title={t('alerts.detail.events')}
      testId="alert-events"
      extra={
        <Text size="xs" c="dimmed">
          {t('alerts.detail.eventsShown', { shown: results.length, count: alert.count })}
        </Text>
      }
    >
      {query.isLoading ? (
        <Text size="sm" c="dimmed">
          {t('common.loading')}
        </Text>
      ) : query.error ? (
        <Text size="sm" c="red">
          {t('alerts.detail.eventsFailed')}
        </Text>
      ) : (
        <Stack gap={6}>
          {results.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('alerts.detail.noEvents')}
            </Text>
          )}
          {results.map((event) => {
            const key = `${event.kind}:${event.id}`;
            const expanded = key === shownKey;
            return (
              <div key={key}>
                <UnstyledButton
                  onClick={() => setOpen(expanded ? '' : key)}
                  className="vigil-linked-event"
                  aria-expanded={expanded}
                  w="100%"
                >
                  <Group gap="xs" wrap="nowrap">
                    {expanded ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
                    <Text span size="sm" className="vigil-num" c="dimmed" style={{ flex: 'none' }}>
                      {formatDate(event.ts, 'isoDateTimeSeconds')}
                    </Text>
                    <Badge size="xs" variant="light" color="gray" radius="sm" style={{ flex: 'none' }}>
                      {t(`triage.source.${event.kind}`)}
                    </Badge>
                    <Text span size="sm" className="vigil-ellipsis">
                      {eventSummary(event.kind, event.event)}
                    </Text>
                  </Group>
                </UnstyledButton>
                <Collapse expanded={expanded}>
                  <Stack gap={4} mt={6} mb={6}>
                    <Text size="xs" fw={600} c="dimmed">
                      {t('alerts.detail.raw')}
                    </Text>
                    <JsonView value={event.raw ?? event.event} maxHeight={420} testId="alert-raw-json" />
                  </Stack>
                </Collapse>
              </div>
            );
          })}
          {(query.data?.hidden ?? 0) > 0 && (
            <Text size="xs" c="dimmed">
              {t('alerts.detail.eventsHidden', { count: query.data?.hidden ?? 0 })}
            </Text>
          )}
        </Stack>
      )}
    </Card>
  );
}

/** Comments, oldest first, and a box to add one (Ctrl/⌘+Enter sends). */
export function CommentsCard({
  alert,
  mayComment,
  onAdd,
}: {
  alert: AlertDetail;
  mayComment: boolean;
  onAdd: (body: string) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [body, setBody] = useState('');
  const [sending, setSending] = useState(false);
  const send = async () => {
    if (!body.trim() || sending) return;
    setSending(true);
    const ok = await onAdd(body.trim());
    setSending(false);
    if (ok) setBody('');
  };
  return (
    <Card title={t('alerts.detail.comments')} testId="alert-comments">
      <Stack gap="sm">
        {alert.comments.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('alerts.detail.noComments')}
          </Text>
        )}
        {alert.comments.map((comment) => (
          <div key={comment.id} className="vigil-comment">
            <Group gap="xs" mb={2}>
              <Text size="sm" fw={600}>
                {comment.username ?? t('alerts.detail.system')}
              </Text>
              <Text size="xs" c="dimmed">
                {formatDate(comment.createdAt, 'isoDateTime')}
              </Text>
            </Group>
            <div className="vigil-comment__body">{comment.body}</div>
          </div>
        ))}
        {mayComment && (
          <Stack gap={6}>
            <Textarea
              placeholder={t('alerts.detail.commentPlaceholder')}
              value={body}
              onChange={(event) => setBody(event.currentTarget.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void send();
              }}
              autosize
              minRows={2}
              maxRows={10}
              maxLength={20000}
              data-testid="comment-input"
            />
            <Group justify="flex-end">
              <Button
                size="compact-sm"
                onClick={() => void send()}
                loading={sending}
                disabled={!body.trim()}
                data-testid="comment-submit"
              >
                {t('alerts.detail.addComment')}
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

type Users = ReturnType<typeof useAssignableUsers>;

/** The alert's history from the system log, newest first, each change as before → after. */
export function HistoryCard({ alert, users }: { alert: AlertDetail; users: Users }) {
  const { t } = useTranslation();
  const fieldLabel = (field: string) =>
    (['status', 'resolution', 'assignee_id', 'severity', 'tags', 'incident_id'] as const).includes(field as never)
      ? t(`alerts.fields.${field as 'status'}`)
      : field;
  const show = (field: string, value: unknown): string => {
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) {
      return t('alerts.detail.emptyValue');
    }
    if (field === 'status' && typeof value === 'string') return t(`triage.alertStatus.${value as 'new'}`, value);
    if (field === 'severity' && typeof value === 'string') return t(`triage.severity.${value as 'low'}`, value);
    if (field === 'resolution' && typeof value === 'string') return t(`triage.resolution.${value as 'benign'}`, value);
    if (field === 'assignee_id' && typeof value === 'number') return userLabel(users.byId.get(value), value);
    if (field === 'incident_id' && typeof value === 'number') return `#${value}`;
    if (Array.isArray(value)) return value.map(String).join(', ');
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  };
  const actionLabel = (action: string) => {
    const known = ['raise', 'update', 'comment', 'bulk_update', 'deduplicate', 'matcher'] as const;
    return (known as readonly string[]).includes(action)
      ? t(`alerts.detail.historyActions.${action as 'raise'}`)
      : action;
  };
  const entries = [...alert.history].reverse();
  return (
    <Card title={t('alerts.detail.history')} testId="alert-history">
      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('alerts.detail.noHistory')}
        </Text>
      ) : (
        <ol className="vigil-history">
          {entries.map((entry) => {
            const changed = Object.entries(entry.changes).filter(
              ([, change]) =>
                JSON.stringify(change.before) !== JSON.stringify(change.after) && change.before !== undefined,
            );
            return (
              <li key={entry.id}>
                <Text size="xs" c="dimmed" className="vigil-num">
                  {formatDate(entry.dateTime, 'isoDateTimeSeconds')}
                </Text>
                <Text size="sm">
                  <strong>{actionLabel(entry.action)}</strong> · {entry.username ?? t('alerts.detail.system')}
                </Text>
                {changed.map(([field, change]) => (
                  <Text key={field} size="xs" c="dimmed">
                    {t('alerts.detail.changed', {
                      field: fieldLabel(field),
                      before: show(field, change.before),
                      after: show(field, change.after),
                    })}
                  </Text>
                ))}
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
}
