import { Combobox, Group, Text, Textarea, useCombobox } from '@mantine/core';
import { commonFields, fieldFor, type QueryProblem, type SearchKind } from '@vigil/contract/query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { valueAtCursor, wordAtCursor } from '../lib/query-problems';

/** Values a field commonly takes, offered after `field:`. */
const knownValues: Record<string, readonly string[]> = {
  severity: ['critical', 'high', 'medium', 'low', 'info'],
  status: ['new', 'in_progress', 'resolved', 'closed'],
  resolution: ['true_positive', 'false_positive', 'benign', 'duplicate'],
  proto: ['TCP', 'UDP', 'ICMP', 'IPv6-ICMP'],
  event_type: ['alert', 'dns', 'http', 'tls', 'flow', 'fileinfo', 'dhcp', 'smtp', 'ssh', 'anomaly'],
  spf: ['pass', 'fail', 'softfail', 'neutral', 'none'],
  dkim: ['pass', 'fail', 'none'],
  dmarc: ['pass', 'fail', 'none'],
  outcome: ['success', 'failure', 'unknown'],
  file_stored: ['true', 'false'],
};

/** The box's placeholder: a query reads the same in every language. */
const QUERY_EXAMPLE = 'process_name: powershell.exe and command_line: "-enc"';

interface Suggestion {
  value: string;
  label: string;
  hint: string;
  /** Where the replaced text starts. */
  start: number;
  /** What replaces it. */
  insert: string;
}

/**
 * The query box: suggests the fields of the data chosen while a term starts and known values after
 * `field:`, runs on Enter (Shift+Enter for a new line) and underlines nothing itself — the page shows
 * the problem found below it.
 */
export function QueryInput({
  value,
  onChange,
  onRun,
  kinds,
  problem,
}: {
  value: string;
  onChange: (value: string) => void;
  onRun: () => void;
  kinds: readonly SearchKind[];
  problem: QueryProblem | null;
}) {
  const { t } = useTranslation();
  const combobox = useCombobox();
  const input = useRef<HTMLTextAreaElement>(null);
  const [cursor, setCursor] = useState(0);
  const fields = useMemo(() => commonFields(kinds), [kinds]);

  const suggestions = useMemo((): Suggestion[] => {
    const afterField = valueAtCursor(value, cursor);
    if (afterField) {
      const values = knownValues[afterField.field] ?? [];
      return values
        .filter((v) => v.toLowerCase().startsWith(afterField.typed.toLowerCase()) && v !== afterField.typed)
        .map((v) => ({ value: `v:${v}`, label: v, hint: afterField.field, start: afterField.start, insert: `${v} ` }));
    }
    const word = wordAtCursor(value, cursor);
    if (!word || word.word.length === 0) return [];
    const typed = word.word.toLowerCase();
    return fields
      .filter((name) => name.startsWith(typed) && name !== typed)
      .slice(0, 12)
      .map((name) => ({
        value: `f:${name}`,
        label: name,
        hint: t(`search.fieldTypes.${fieldFor(kinds, name)?.type ?? 'keyword'}`),
        start: word.start,
        insert: `${name}: `,
      }));
  }, [value, cursor, fields, kinds, t]);

  // The first suggestion is always the one Enter takes (arrows move from it).
  useEffect(() => {
    if (suggestions.length > 0 && combobox.dropdownOpened) combobox.selectFirstOption();
  }, [suggestions, combobox]);

  const choose = (suggestion: Suggestion) => {
    const next = `${value.slice(0, suggestion.start)}${suggestion.insert}${value.slice(cursor)}`;
    const at = suggestion.start + suggestion.insert.length;
    onChange(next);
    setCursor(at);
    combobox.closeDropdown();
    requestAnimationFrame(() => {
      input.current?.focus();
      input.current?.setSelectionRange(at, at);
    });
  };

  const track = () => setCursor(input.current?.selectionStart ?? value.length);

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(chosen) => {
        const suggestion = suggestions.find((s) => s.value === chosen);
        if (suggestion) choose(suggestion);
      }}
      withinPortal
    >
      <Combobox.Target>
        <Textarea
          ref={input}
          label={t('search.queryLabel')}
          placeholder={QUERY_EXAMPLE}
          value={value}
          autosize
          minRows={1}
          maxRows={6}
          spellCheck={false}
          autoComplete="off"
          className="vigil-search-query"
          error={problem !== null}
          aria-invalid={problem !== null}
          onChange={(event) => {
            onChange(event.currentTarget.value);
            setCursor(event.currentTarget.selectionStart ?? event.currentTarget.value.length);
            combobox.openDropdown();
          }}
          onClick={track}
          onKeyUp={(event) => {
            if (!['ArrowDown', 'ArrowUp', 'Enter', 'Escape'].includes(event.key)) track();
          }}
          onBlur={() => combobox.closeDropdown()}
          onKeyDown={(event) => {
            const open = combobox.dropdownOpened && suggestions.length > 0;
            if (event.key === 'Enter' && !event.shiftKey && !open) {
              event.preventDefault();
              onRun();
            }
            if (event.key === 'Escape') combobox.closeDropdown();
          }}
          data-testid="search-query"
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={suggestions.length === 0}>
        <Combobox.Options data-testid="search-suggestions">
          {suggestions.map((suggestion) => (
            <Combobox.Option value={suggestion.value} key={suggestion.value} data-testid="search-suggestion">
              <Group justify="space-between" gap="md" wrap="nowrap">
                <Text size="sm" ff="monospace">
                  {suggestion.label}
                </Text>
                <Text size="xs" c="dimmed">
                  {suggestion.hint}
                </Text>
              </Group>
            </Combobox.Option>
          ))}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
