import { Group, SegmentedControl, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { graphKeys, searchRoots, type RootRef } from '../api/graph';

export interface RootPickerProps {
  root: RootRef | null;
  onChoose: (root: RootRef) => void;
  /** Whether the caller may view incidents (else only alerts are offered). */
  incidents: boolean;
  /** How the graph names its root (`#17 Title`), shown until the search answers. */
  rootLabel?: string | undefined;
}

/** Choose what the graph is about: an alert or an incident, found by id or title. */
export function RootPicker({ root, onChoose, incidents, rootLabel }: RootPickerProps) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<RootRef['kind']>(root?.kind ?? 'alert');
  const [search, setSearch] = useState('');
  // The label of the chosen option (the box shows it as its search text; that is not a search).
  const [chosenLabel, setChosenLabel] = useState<string | null>(null);
  const [debounced] = useDebouncedValue(search, 300);
  const text = debounced === chosenLabel ? '' : debounced;
  const choices = useQuery({
    queryKey: graphKeys.search(kind, text),
    queryFn: ({ signal }) => searchRoots(kind, text, signal),
    staleTime: 30_000,
  });
  const data = (choices.data ?? []).map((c) => ({ value: String(c.id), label: `#${c.id} ${c.title}` }));
  const current = root && root.kind === kind ? String(root.id) : null;
  if (current && !data.some((d) => d.value === current))
    data.unshift({ value: current, label: chosenLabel ?? rootLabel ?? `#${current}` });
  return (
    <Group gap="xs" wrap="nowrap" className="vigil-graph__picker">
      {incidents && (
        <SegmentedControl
          size="xs"
          aria-label={t('graph.picker.label')}
          value={kind}
          onChange={(value) => setKind(value === 'incident' ? 'incident' : 'alert')}
          data={[
            { value: 'alert', label: t('graph.picker.alert') },
            { value: 'incident', label: t('graph.picker.incident') },
          ]}
        />
      )}
      <Select
        size="xs"
        w={320}
        searchable
        clearable={false}
        aria-label={kind === 'alert' ? t('graph.picker.alertSearch') : t('graph.picker.incidentSearch')}
        placeholder={t('graph.picker.placeholder')}
        leftSection={<IconSearch size={14} />}
        data={data}
        value={current}
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options }) => options}
        nothingFoundMessage={choices.isFetching ? undefined : t('graph.picker.nothing')}
        onChange={(value, option) => {
          if (!value) return;
          setChosenLabel(option?.label ?? null);
          onChoose({ kind, id: Number(value) });
        }}
      />
    </Group>
  );
}
