import { Group, Menu, Button, TextInput, Tooltip } from '@mantine/core';
import { IconCalendarTime } from '@tabler/icons-react';
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import { formatDate, isoToZonedInput, zonedInputToIso } from '../../../lib/dates';
import { useSignedInUser } from '../../../lib/session';

export { DetailSection as Section, KeyValues } from '../../../components/list-page';
import { filesUrl } from '../../triage';
import { DateTimeInput } from '../../../lib/dates/date-time-field';
import type { Field } from '../../../components/event-drawer';
import { CopyAction } from '../../../components/ui/copy-field';
import type { Column } from '../../../components/list';
import type { FilterField } from '../../../components/list-page';
import type { FilterKind, FiltersOf, ListState } from '../../../lib/list';
import type { StoredEvent } from '../api/investigation';
import { networkCodeLabel } from '../lib/codes';

export type Verdict = 'malicious' | 'allowed' | 'unknown';

const verdictColor: Record<Verdict, string> = { malicious: 'red', allowed: 'green', unknown: 'grey' };

/** What the policy indicators say of a value. */
export function VerdictBadge({ verdict, severity }: { verdict: Verdict; severity?: string | null }) {
  const { t } = useTranslation();
  return (
    <span className={`vigil-pill vigil-pill--${verdictColor[verdict]}`} data-verdict={verdict}>
      {t(`investigation.verdict.${verdict}`)}
      {verdict === 'malicious' && severity ? ` · ${t(`triage.severity.${severity as 'high'}`)}` : ''}
    </span>
  );
}

const typeColor: Record<string, string> = {
  alert: 'red',
  dns: 'blue',
  http: 'purple',
  tls: 'turquoise',
  fileinfo: 'orange',
  flow: 'grey',
  anomaly: 'yellow',
  ssh: 'blue',
  dhcp: 'green',
  smtp: 'orange',
};

/** An EVE event type as a coloured pill, named in the interface language (the code stays in `data-type`). */
export function EventTypeBadge({ type }: { type: string }) {
  return (
    <span className={`vigil-pill vigil-pill--${typeColor[type] ?? 'grey'}`} data-type={type}>
      {networkCodeLabel('eventType', type)}
    </span>
  );
}

/** A code named in the interface language, the code itself beside it (what a filter takes); an unknown code alone. */
export function CodeName({ code, name }: { code: string; name: (code: string) => string }) {
  const named = name(code);
  if (named === code) return <span className="vigil-inv-mono">{code}</span>;
  return (
    <span>
      {named} <span className="vigil-inv-dim vigil-inv-mono">{code}</span>
    </span>
  );
}

/** How long the pointer or focus rests on a pivot before its hint shows. */
const PIVOT_HINT_DELAY_MS = 400;

/**
 * A value that filters the page by itself when clicked (an IP, a host, a user). Lists draw two of
 * these per row, so the row holds a plain button; the hint ("Filter by …") mounts only while the
 * pointer or focus rests on it.
 */
export function Pivot({ value, label, onPivot }: { value: string; label?: string; onPivot: (value: string) => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [hinted, setHinted] = useState(false);
  const show = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setHinted(true), PIVOT_HINT_DELAY_MS);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setHinted(false);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <>
      <button
        ref={ref}
        type="button"
        className="vigil-inv-pivot"
        onMouseEnter={show}
        onMouseLeave={hide}
        onFocus={show}
        onBlur={hide}
        onClick={(event) => {
          event.stopPropagation();
          hide();
          onPivot(value);
        }}
      >
        {label ?? value}
      </button>
      {hinted ? <PivotHint value={value} target={ref} /> : null}
    </>
  );
}

function PivotHint({ value, target }: { value: string; target: RefObject<HTMLButtonElement | null> }) {
  const { t } = useTranslation();
  return <Tooltip label={t('investigation.common.filterBy', { value })} opened target={target} withArrow />;
}

/** A hash shown in monospace with a copy button; a SHA-256 links to the files page. */
export function HashValue({ value, link = true }: { value: string; link?: boolean }) {
  const isSha256 = /^[0-9a-f]{64}$/i.test(value);
  return (
    <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
      {link && isSha256 ? (
        <Link
          to={filesUrl({ sha256: value })}
          className="vigil-inv-link vigil-inv-mono"
          style={{ overflowWrap: 'anywhere' }}
          onClick={(event) => event.stopPropagation()}
        >
          {value}
        </Link>
      ) : (
        <span className="vigil-inv-mono" style={{ overflowWrap: 'anywhere' }}>
          {value}
        </span>
      )}
      <CopyAction value={value} size="sm" />
    </Group>
  );
}

interface Hashes {
  sha256: string | null;
  sha1: string | null;
  md5: string | null;
}

/** A file's hashes as drawer fields, strongest first; the SHA-256 links to the files page unless `link` is false. */
export function hashFields(hash: Hashes, link = true): Field[] {
  return [
    ['SHA-256', hash.sha256 ? <HashValue value={hash.sha256} link={link} /> : null],
    ['SHA-1', hash.sha1 ? <HashValue value={hash.sha1} link={false} /> : null],
    ['MD5', hash.md5 ? <HashValue value={hash.md5} link={false} /> : null],
  ];
}

/** A value set in the monospace face; nothing when there is none. */
export const mono = (value: string | null | undefined) =>
  value ? <span className="vigil-inv-mono">{value}</span> : null;

const presets = [
  ['last15m', 15 * 60_000],
  ['last1h', 3_600_000],
  ['last24h', 24 * 3_600_000],
  ['last7d', 7 * 24 * 3_600_000],
  ['last30d', 30 * 24 * 3_600_000],
] as const;

/** From/to in the user's zone, with presets that fill them (an absolute window, so a shared link shows the same). */
export function TimeRangeFilter({
  from,
  to,
  onChange,
}: {
  from: string | undefined;
  to: string | undefined;
  onChange: (range: { tsFrom: string | undefined; tsTo: string | undefined }) => void;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <DateTimeInput
        className="vigil-filters__date"
        label={t('investigation.common.from')}
        value={isoToZonedInput(from)}
        onChange={(next) => onChange({ tsFrom: zonedInputToIso(next) ?? undefined, tsTo: to })}
        data-testid="filter-ts-from"
      />
      <DateTimeInput
        className="vigil-filters__date"
        label={t('investigation.common.to')}
        value={isoToZonedInput(to)}
        onChange={(next) => onChange({ tsFrom: from, tsTo: zonedInputToIso(next) ?? undefined })}
        data-testid="filter-ts-to"
      />
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button variant="default" leftSection={<IconCalendarTime size={16} />} data-testid="time-presets">
            {t('investigation.common.period')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {presets.map(([name, span]) => (
            <Menu.Item
              key={name}
              onClick={() => onChange({ tsFrom: new Date(Date.now() - span).toISOString(), tsTo: undefined })}
            >
              {t(`investigation.common.${name}`)}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item onClick={() => onChange({ tsFrom: undefined, tsTo: undefined })}>
            {t('investigation.common.allTime')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

const HASH = /^(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64})$/i;

/** A hash filter box: the list follows it only once it holds a whole MD5, SHA-1 or SHA-256 (or nothing). */
export function HashFilter({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: string | undefined;
  onChange: (hash: string | undefined) => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  const trimmed = text.trim();
  const invalid = trimmed !== '' && !HASH.test(trimmed);
  return (
    <TextInput
      className="vigil-filters__search"
      label={label}
      placeholder={t('investigation.endpoint.hashPlaceholder')}
      value={text}
      error={invalid ? t('investigation.common.badHash') : undefined}
      onChange={(event) => {
        const next = event.currentTarget.value;
        setText(next);
        if (next.trim() === '' || HASH.test(next.trim())) onChange(next.trim().toLowerCase() || undefined);
      }}
      classNames={{ input: 'vigil-mono-input' }}
      data-testid={testId}
    />
  );
}

/** A hash box as a field of a list's filter bar, bound to the filter `name`. */
export function hashFilterField<D extends Record<string, FilterKind>>(
  name: Extract<keyof D, string>,
  label: string,
  list: Pick<ListState<D>, 'filters' | 'setFilters'>,
  testId?: string,
): FilterField<D> {
  return {
    kind: 'custom',
    name,
    render: () => (
      <HashFilter
        label={label}
        value={list.filters[name] as string | undefined}
        onChange={(hash) => list.setFilters({ [name]: hash } as FiltersOf<D>)}
        testId={testId}
      />
    ),
  };
}

/** A filter of a few values side by side, "any" (no filter) first; each value with its name. */
export function segmentsField<D extends Record<string, FilterKind>>(
  name: Extract<keyof D, string>,
  label: string,
  any: string,
  values: readonly [value: string | boolean, label: string][],
): FilterField<D> {
  const options = [{ value: undefined, label: any }, ...values.map(([value, text]) => ({ value, label: text }))];
  return { kind: 'segmented', name, label, options };
}

/** The name of a company the user sees. */
export function useCompanyName(): (id: number) => string {
  const me = useSignedInUser();
  return (id) => me.companies.find((company) => company.id === id)?.name ?? `#${id}`;
}

/** What an event list gives its drawer: the open row (null: closed), and how to filter the list by a value (closing it). */
export interface EventDrawerProps<Filter> {
  row: StoredEvent | null;
  onClose: () => void;
  onFilter: (filter: Filter) => void;
}

/**
 * What an event's drawer takes from the event's detail read: the event (the list's copy until the
 * detail is there) and the drawer's state with the raw record, its closing and its test id.
 */
export function useEventDetail<View>(
  row: StoredEvent | null,
  detail: { isLoading: boolean; error: unknown; data?: { event: unknown; raw: unknown } },
  drawer: { onClose: () => void; testId: string },
) {
  const { t } = useTranslation();
  return {
    event: (detail.data?.event ?? row?.event) as View | undefined,
    drawer: {
      ...drawer,
      opened: row !== null,
      raw: { isLoading: detail.isLoading, error: detail.error, raw: detail.data?.raw },
      rawTitle: t('investigation.common.raw'),
    },
  };
}

/**
 * The column builder of an event list whose cells read the event's view (`of(row)`), not the stored
 * row: `column('proto', header, '96px', (event) => …)`.
 */
export function eventColumns<View>(of: (row: StoredEvent) => View) {
  return (
    id: string,
    header: string,
    width: string,
    render: (event: View, row: StoredEvent) => ReactNode,
  ): Column<StoredEvent> => ({ id, header, width, render: (row) => render(of(row), row) });
}

/** The first column of an event list: when the event happened, to the second; the list sorts by it. */
export function eventTimeColumn(header: string): Column<StoredEvent> {
  return {
    id: 'ts',
    header,
    width: '160px',
    sortField: 'ts',
    render: (row) => <span className="vigil-inv-mono">{formatDate(row.ts, 'isoDateTimeSeconds')}</span>,
  };
}
