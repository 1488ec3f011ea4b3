import { Button, Group, Text } from '@mantine/core';
import { Fragment, isValidElement, type ReactElement, type ReactNode } from 'react';
import { DetailDrawer, DetailSection, KeyValues, type DetailRead } from '../list-page';

/** One labelled value of a section; an empty value (null, undefined, '') is left out. */
export type Field = [label: string, value: ReactNode];

/** A way on from the record under a section's fields: filter the list by it, open a tree, download it. */
export interface Pivot {
  label: string;
  icon: ReactNode;
  /** What the button does; or `href`, where it leads. */
  onClick?: () => void;
  href?: string;
  testId?: string;
}

/** A titled section of labelled fields, with what follows them (a table) and its pivots. */
export interface FieldSection {
  /** Tells the sections apart (React's key). */
  id: string;
  title: ReactNode;
  testId?: string;
  fields: Field[];
  fieldsTestId?: string;
  /** Shown under the fields. */
  more?: ReactNode;
  pivots?: (Pivot | null | false)[];
}

/** A section of the drawer: labelled fields, or a part the page draws itself; nothing when left out. */
export type EventSection = FieldSection | ReactElement | null | false | undefined;

/** The drawer's title line: badges before and after the title text. */
export interface EventHeading {
  title: ReactNode;
  before?: ReactNode;
  after?: ReactNode;
}

function PivotButton({ pivot }: { pivot: Pivot }) {
  const common = {
    size: 'xs',
    variant: 'light',
    leftSection: pivot.icon,
    'data-testid': pivot.testId,
  } as const;
  return pivot.href ? (
    <Button {...common} component="a" href={pivot.href}>
      {pivot.label}
    </Button>
  ) : (
    <Button {...common} onClick={pivot.onClick}>
      {pivot.label}
    </Button>
  );
}

/** A section of labelled fields as the drawer shows it. */
export function FieldsSection({ section }: { section: FieldSection }) {
  const pivots = (section.pivots ?? []).filter((pivot): pivot is Pivot => Boolean(pivot));
  return (
    <DetailSection title={section.title} testId={section.testId}>
      <KeyValues items={section.fields} testId={section.fieldsTestId} />
      {section.more}
      {pivots.length > 0 && (
        <Group gap="xs" mt="sm">
          {pivots.map((pivot) => (
            <PivotButton key={pivot.label} pivot={pivot} />
          ))}
        </Group>
      )}
    </DetailSection>
  );
}

/**
 * The drawer of one record of an event list: a title line, its sections in order (labelled fields
 * with their pivots, or parts the page draws), and the record as it arrived. Empty while no record
 * is open.
 */
export function EventDrawer({
  opened,
  onClose,
  testId,
  heading,
  sections,
  raw,
  rawTitle,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  testId: string;
  /** Left out while the record is not known. */
  heading: EventHeading | null;
  /** Left out (null) while the record is not known. */
  sections: readonly EventSection[] | null;
  /** The detail read whose raw record ends the drawer. */
  raw?: DetailRead;
  rawTitle?: string;
  /** Shown before the sections (the detail's loading and error states). */
  children?: ReactNode;
}) {
  const title = heading && (
    <Group gap="sm">
      {heading.before}
      <Text fw={600}>{heading.title}</Text>
      {heading.after}
    </Group>
  );
  const body = sections && (
    <>
      {sections.map((section, index) =>
        !section ? null : isValidElement(section) ? (
          <Fragment key={section.key ?? index}>{section}</Fragment>
        ) : (
          <FieldsSection key={section.id} section={section} />
        ),
      )}
    </>
  );
  return (
    <DetailDrawer opened={opened} onClose={onClose} title={title} testId={testId} raw={raw} rawTitle={rawTitle}>
      {children || body ? (
        <>
          {children}
          {body}
        </>
      ) : null}
    </DetailDrawer>
  );
}
