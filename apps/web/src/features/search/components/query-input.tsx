import { Combobox, Group, Text, Textarea, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { commonFields, fieldFor, suggestedValueTypes, type QueryProblem, type SearchKind } from '@vigil/contract/query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { searchKeys, searchValues, type KnownValuesAsk } from '../api/search';
import { fixedValues, knownValues } from '../lib/known-values';
import { valueAtCursor, wordAtCursor } from '../lib/query-problems';
import { written } from '../lib/search-state';

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

/** How long typing pauses before the values seen in the data are asked for. */
const VALUES_DEBOUNCE_MS = 200;

/**
 * The query box: suggests the fields of the data chosen while a term starts and, after `field:`, the
 * values the data holds most often in the time range (and a field's usual values), runs on Enter (Shift+Enter for a new line) and underlines nothing itself — the page shows
 * the problem found below it.
 */
export function QueryInput({
  value,
  onChange,
  onRun,
  kinds,
  problem,
  range,
}: {
  value: string;
  onChange: (value: string) => void;
  onRun: () => void;
  kinds: readonly SearchKind[];
  problem: QueryProblem | null;
  /** The time range searched: the values suggested are those seen in it. */
  range?: { from: string; to: string };
}) {
  const { t, i18n } = useTranslation();
  const combobox = useCombobox();
  const input = useRef<HTMLTextAreaElement>(null);
  const [cursor, setCursor] = useState(0);
  const fields = useMemo(() => commonFields(kinds), [kinds]);

  // After `field:` of a field whose values are suggested, the values seen in the data, asked for
  // once typing pauses; the last answer stays shown meanwhile.
  const afterField = useMemo(() => valueAtCursor(value, cursor), [value, cursor]);
  const valueField = afterField ? fieldFor(kinds, afterField.field) : null;
  const ask = useMemo(
    (): KnownValuesAsk | null =>
      afterField && valueField && suggestedValueTypes.includes(valueField.type)
        ? { kinds, field: afterField.field, prefix: afterField.typed, from: range?.from, to: range?.to }
        : null,
    [afterField, valueField, kinds, range?.from, range?.to],
  );
  const [asked] = useDebouncedValue(ask, VALUES_DEBOUNCE_MS);
  const seen = useQuery({
    queryKey: searchKeys.values(asked ?? { kinds: [], field: '', prefix: '' }),
    queryFn: ({ signal }) => (asked ? searchValues(asked, signal) : Promise.resolve([])),
    enabled: asked !== null && combobox.dropdownOpened,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
  const seenValues = asked !== null && ask !== null && asked.field === ask.field ? seen.data : undefined;

  const suggestions = useMemo((): Suggestion[] => {
    if (afterField) {
      return knownValues(seenValues ?? [], fixedValues[afterField.field] ?? [], afterField.typed).map((known) => ({
        value: `v:${known.value}`,
        label: known.value,
        hint: known.count === null ? afterField.field : known.count.toLocaleString(i18n.language),
        start: afterField.start,
        insert: `${written(known.value)} `,
      }));
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
  }, [afterField, seenValues, value, cursor, fields, kinds, t, i18n.language]);

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
