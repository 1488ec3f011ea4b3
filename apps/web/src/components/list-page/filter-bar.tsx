import {
  Button,
  Collapse,
  Group,
  Input,
  MultiSelect,
  Paper,
  SegmentedControl,
  Select,
  TagsInput,
  TextInput,
  type TagsInputProps,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconFilterOff, IconSearch } from '@tabler/icons-react';
import type { ReactNode, Ref } from 'react';
import { useTranslation } from '../../lib/i18n';
import { isoToZonedInput, zonedInputToIso } from '../../lib/dates';
import { DateTimeInput } from '../../lib/dates/date-time-field';
import type { FilterKind, ListDefinition, ListState } from '../../lib/list';
import { useSignedInUser } from '../../lib/session';
import { useSearchBox } from '../list/use-search-box';

type Option<V> = V | { value: V; label: string };

interface FieldBase<D> {
  /** The filter (camelCase name, as in the list definition). */
  name: Extract<keyof D, string>;
  label: string;
  placeholder?: string;
  testId?: string;
  /** The control's width class (`vigil-filters__tags` when left out). */
  className?: string;
}

/** One control of a filter bar, declared by the page; the bar binds it to the URL's list state. */
export type FilterField<D extends Record<string, FilterKind>> =
  /** Text search: applies after a pause or on Enter. */
  | (FieldBase<D> & { kind: 'search'; inputRef?: Ref<HTMLInputElement> })
  /** Pick any of fixed values (`strings`). */
  | (FieldBase<D> & { kind: 'choice'; options: readonly Option<string>[]; searchable?: boolean })
  /** Pick any of records by id (`numbers`). */
  | (FieldBase<D> & { kind: 'ids'; options: readonly { value: number; label: string }[] })
  /** The companies the user sees, by id (`numbers`); not shown to someone who sees only one. */
  | (FieldBase<D> & { kind: 'company' })
  /**
   * Free values, with suggestions (`strings`). `describe` names a suggested code in the interface
   * language: the list shows the name above the code, and typing either finds it.
   */
  | (FieldBase<D> & {
      kind: 'tags';
      suggestions?: readonly string[];
      maxTags?: number;
      describe?: (code: string) => string;
    })
  /** Free numbers, kept when `accept` says so (`numbers`). */
  | (FieldBase<D> & { kind: 'numbers'; accept: (value: number) => boolean })
  /** Yes, no or either (`boolean`), as a select. */
  | (FieldBase<D> & { kind: 'yesNo'; yes: string; no: string; any: string })
  /** A few states side by side (`boolean` or `string`); undefined is "no filter". */
  | (FieldBase<D> & { kind: 'segmented'; options: readonly { value: string | boolean | undefined; label: string }[] })
  /** A date and time in the user's zone (`string`, an ISO instant). */
  | (FieldBase<D> & { kind: 'dateTime' })
  /** Anything else (a time range with presets, a hash box): the page renders it. */
  | { kind: 'custom'; name: string; render: () => ReactNode };

/** Suggestions named in the interface language: the name above the code, and found by either. */
function describedSuggestions(describe: (code: string) => string): Pick<TagsInputProps, 'renderOption' | 'filter'> {
  return {
    renderOption: ({ option }) => {
      const name = describe(option.value);
      return name === option.value ? (
        option.value
      ) : (
        <div>
          <div>{name}</div>
          <div className="vigil-filters__code">{option.value}</div>
        </div>
      );
    },
    filter: ({ options, search }) => {
      const wanted = search.trim().toLowerCase();
      return options.filter(
        (option) =>
          !('value' in option) ||
          option.value.toLowerCase().includes(wanted) ||
          describe(option.value).toLowerCase().includes(wanted),
      );
    },
  };
}

const toOptions = <V,>(options: readonly Option<V>[]) =>
  options.map((option) =>
    typeof option === 'object' && option !== null && 'value' in option
      ? { value: option.value, label: option.label }
      : { value: option, label: String(option) },
  );

const booleanKey = (value: boolean | undefined) => (value === undefined ? '' : String(value));
const fromBooleanKey = (value: string | null) => (value === 'true' ? true : value === 'false' ? false : undefined);
/** A segmented state's key: its value as text, "" for no filter. */
const stateKey = (value: unknown) => (value === undefined ? '' : String(value));

/**
 * A search box over a list's text filter: applies after a pause or on Enter, Escape leaves it, and the
 * URL stays the truth. Pages with a filter bar of their own use it too.
 */
export function SearchFilter<D extends Record<string, FilterKind>>({
  list,
  name,
  label,
  placeholder,
  testId,
  inputRef,
}: {
  list: ListState<D>;
  name: Extract<keyof D, string>;
  label: string;
  placeholder?: string;
  testId?: string;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const current = list.filters[name] as string | undefined;
  const search = useSearchBox(current, (value) => list.setFilters({ [name]: value } as never));
  return (
    <TextInput
      ref={inputRef}
      className="vigil-filters__search"
      label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      type="search"
      maxLength={200}
      value={search.value}
      onChange={search.onChange}
      onKeyDown={(event) => {
        search.onKeyDown(event);
        if (event.key === 'Escape') event.currentTarget.blur();
      }}
      data-testid={testId}
    />
  );
}

function CompanyField<D extends Record<string, FilterKind>>({
  field,
  list,
}: {
  field: FieldBase<D>;
  list: ListState<D>;
}) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  if (me.companies.length <= 1) return null;
  const value = (list.filters[field.name] as number[] | undefined) ?? [];
  return (
    <MultiSelect<number>
      className="vigil-filters__tags"
      label={field.label}
      placeholder={value.length ? undefined : (field.placeholder ?? t('common.any'))}
      data={me.companies.map((company) => ({ value: company.id, label: company.name }))}
      value={value}
      onChange={(ids) => list.setFilters({ [field.name]: ids } as never)}
      searchable
      clearable
      data-testid={field.testId}
    />
  );
}

/** One declared control, bound to its filter in the URL (pages with a bar of their own use it too). */
export function FilterControl<D extends Record<string, FilterKind>>({
  field,
  list,
}: {
  field: FilterField<D>;
  list: ListState<D>;
}) {
  const { t } = useTranslation();
  if (field.kind === 'custom') return <>{field.render()}</>;
  const value = list.filters[field.name];
  const set = (next: unknown) => list.setFilters({ [field.name]: next } as never);
  const anyPlaceholder = (values: readonly unknown[]) =>
    values.length ? undefined : (field.placeholder ?? t('common.any'));
  switch (field.kind) {
    case 'search':
      return (
        <SearchFilter
          list={list}
          name={field.name}
          label={field.label}
          placeholder={field.placeholder}
          testId={field.testId}
          inputRef={field.inputRef}
        />
      );
    case 'company':
      return <CompanyField field={field} list={list} />;
    case 'choice': {
      const values = (value as string[] | undefined) ?? [];
      const options = toOptions(field.options);
      // A value in the URL that the options do not know is still shown (and can be removed).
      for (const known of values)
        if (!options.some((option) => option.value === known)) options.push({ value: known, label: known });
      return (
        <MultiSelect
          className={field.className ?? 'vigil-filters__tags'}
          label={field.label}
          placeholder={anyPlaceholder(values)}
          data={options}
          value={values}
          onChange={set}
          searchable={field.searchable}
          clearable
          data-testid={field.testId}
        />
      );
    }
    case 'ids': {
      const values = (value as number[] | undefined) ?? [];
      return (
        <MultiSelect<number>
          className={field.className ?? 'vigil-filters__tags'}
          label={field.label}
          placeholder={anyPlaceholder(values)}
          data={field.options}
          value={values}
          onChange={set}
          searchable
          clearable
          data-testid={field.testId}
        />
      );
    }
    case 'tags':
    case 'numbers': {
      const values = ((value as unknown[] | undefined) ?? []).map(String);
      const accept = field.kind === 'numbers' ? field.accept : undefined;
      return (
        <TagsInput
          className={field.className ?? 'vigil-filters__tags'}
          label={field.label}
          placeholder={values.length ? undefined : field.placeholder}
          data={field.kind === 'tags' ? (field.suggestions as string[] | undefined) : undefined}
          value={values}
          // Numbers keep only what `accept` takes (a port, an id); text stays as typed.
          onChange={(texts) =>
            set(accept ? texts.map(Number).filter((number) => Number.isFinite(number) && accept(number)) : texts)
          }
          maxTags={field.kind === 'tags' ? field.maxTags : undefined}
          {...(field.kind === 'tags' && field.describe ? describedSuggestions(field.describe) : {})}
          clearable
          data-testid={field.testId}
        />
      );
    }
    case 'yesNo':
      return (
        <Select
          className="vigil-filters__narrow"
          label={field.label}
          data={[
            { value: '', label: field.any },
            { value: 'true', label: field.yes },
            { value: 'false', label: field.no },
          ]}
          value={booleanKey(value as boolean | undefined)}
          onChange={(next) => set(fromBooleanKey(next))}
          allowDeselect={false}
          data-testid={field.testId}
        />
      );
    case 'segmented':
      return (
        <Input.Wrapper label={field.label}>
          <SegmentedControl
            value={stateKey(value)}
            onChange={(next) => set(field.options.find((option) => stateKey(option.value) === next)?.value)}
            data={field.options.map((option) => ({ value: stateKey(option.value), label: option.label }))}
            data-testid={field.testId}
          />
        </Input.Wrapper>
      );
    case 'dateTime':
      return (
        <DateTimeInput
          className="vigil-filters__date"
          label={field.label}
          value={isoToZonedInput(value as string | undefined)}
          onChange={(next) => set(zonedInputToIso(next) ?? undefined)}
          {...(field.testId ? { 'data-testid': field.testId } : {})}
        />
      );
  }
}

export interface FilterBarProps<D extends Record<string, FilterKind>> {
  definition: ListDefinition<D>;
  list: ListState<D>;
  fields: readonly FilterField<D>[];
  /** Fewer-used filters, folded away until asked for (open at first when any of them is set). */
  more?: readonly FilterField<D>[];
  /** Filters "Reset filters" leaves alone (e.g. an archive switch); the button shows when there are fields. */
  keepOnReset?: readonly string[];
  /** A second row of controls (date range) under the first. */
  second?: readonly FilterField<D>[];
}

/** The filters over a list, each bound to the URL (a filtered view can be shared and survives a reload). */
export function FilterBar<D extends Record<string, FilterKind>>({
  definition,
  list,
  fields,
  more = [],
  keepOnReset = [],
  second = [],
}: FilterBarProps<D>) {
  const { t } = useTranslation();
  const moreNames = more.map((field) => field.name);
  const [moreOpen, { toggle }] = useDisclosure(moreNames.some((name) => list.filters[name] !== undefined));
  const resettable = Object.keys(definition.filters).filter((name) => !keepOnReset.includes(name));
  const filtered = resettable.some((name) => list.filters[name] !== undefined);
  const reset = () =>
    list.setFilters(
      Object.fromEntries(resettable.map((name) => [name, undefined])) as Parameters<typeof list.setFilters>[0],
    );
  const row = (items: readonly FilterField<D>[]) =>
    items.map((field) => <FilterControl key={field.name} field={field} list={list} />);
  return (
    <Paper className="vigil-filters" p="md">
      <Group gap="sm" align="flex-end" wrap="wrap" mb={second.length > 0 ? 'sm' : undefined}>
        {row(fields)}
        {more.length > 0 && (
          <Button variant="subtle" leftSection={<IconAdjustmentsHorizontal size={16} />} onClick={toggle}>
            {moreOpen ? t('list.fewerFilters') : t('list.moreFilters')}
          </Button>
        )}
        {second.length === 0 && <ResetButton disabled={!filtered} onReset={reset} />}
      </Group>
      {second.length > 0 && (
        <Group gap="sm" align="flex-end" wrap="wrap">
          {row(second)}
          <ResetButton disabled={!filtered} onReset={reset} />
        </Group>
      )}
      {more.length > 0 && (
        <Collapse expanded={moreOpen}>
          <Group gap="sm" align="flex-end" wrap="wrap" mt="sm">
            {row(more)}
          </Group>
        </Collapse>
      )}
    </Paper>
  );
}

function ResetButton({ disabled, onReset }: { disabled: boolean; onReset: () => void }) {
  const { t } = useTranslation();
  return (
    <Button variant="subtle" leftSection={<IconFilterOff size={16} />} disabled={disabled} onClick={onReset}>
      {t('common.resetFilters')}
    </Button>
  );
}
