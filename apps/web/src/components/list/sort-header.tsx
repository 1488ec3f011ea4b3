import { Table, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { orderingField } from '../../lib/list';

/** A column header that orders the list by an API field; the same header again flips the direction. */
export function SortHeader({
  field,
  label,
  ordering,
  onSort,
  className,
}: {
  field: string;
  label: string;
  ordering: string;
  onSort: (field: string) => void;
  className?: string;
}) {
  const current = orderingField(ordering);
  const active = current.field === field;
  const Icon = !active ? IconArrowsSort : current.descending ? IconArrowDown : IconArrowUp;
  return (
    <Table.Th className={className} aria-sort={active ? (current.descending ? 'descending' : 'ascending') : 'none'}>
      <UnstyledButton className="vigil-table__sort" onClick={() => onSort(field)} data-active={active}>
        <span>{label}</span>
        <Icon size={14} stroke={1.8} />
      </UnstyledButton>
    </Table.Th>
  );
}
