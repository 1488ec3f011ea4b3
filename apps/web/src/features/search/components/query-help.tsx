import { Badge, Group, Stack, Table, Tabs, Text, Title, UnstyledButton } from '@mantine/core';
import { searchKinds, type SearchKind } from '@vigil/contract/query';
import { SideDrawer } from '../../../components/ui/side-drawer';
import { useTranslation } from '../../../lib/i18n';
import { helpFields, helpSections, splitPlaceholders, type HelpSection } from '../lib/query-help';

/** A dictionary text with its placeholders shown as the bits of query they stand for. */
function WithCode({ text, codes }: { text: string; codes: HelpSection['codes'] }) {
  return (
    <>
      {splitPlaceholders(text).map((part, index) =>
        'text' in part ? part.text : <code key={index}>{codes[part.code] ?? part.code}</code>,
      )}
    </>
  );
}

/** One part of the language: what it says, and examples a click puts into the query box. */
function HelpPart({ section, onPick }: { section: HelpSection; onPick: (query: string) => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6} data-testid={`search-help-${section.id}`}>
      <Title order={4}>{t(`search.help.sections.${section.id}.title`)}</Title>
      <Text size="sm">
        <WithCode text={t(`search.help.sections.${section.id}.text`)} codes={section.codes} />
      </Text>
      <Group gap={6}>
        {section.examples.map((example) => (
          <UnstyledButton
            key={example}
            className="vigil-search-example"
            onClick={() => onPick(example)}
            aria-label={t('search.help.useExample', { query: example })}
            data-testid="search-help-example"
          >
            <code>{example}</code>
          </UnstyledButton>
        ))}
      </Group>
    </Stack>
  );
}

/** The fields of one kind with their types as the console names them; many-valued and free-text ones marked. */
function KindFields({ kind }: { kind: SearchKind }) {
  const { t } = useTranslation();
  return (
    <Table striped withRowBorders={false} verticalSpacing={4} data-testid={`search-help-fields-${kind}`}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('search.help.columns.name')}</Table.Th>
          <Table.Th>{t('search.help.columns.type')}</Table.Th>
          <Table.Th>{t('search.help.columns.notes')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {helpFields(kind).map((field) => (
          <Table.Tr key={field.name} data-testid="search-help-field">
            <Table.Td>
              <code>{field.name}</code>
            </Table.Td>
            <Table.Td>{t(`search.fieldTypes.${field.type}`)}</Table.Td>
            <Table.Td>
              <Group gap={4}>
                {field.many && (
                  <Badge size="xs" variant="light" color="gray">
                    {t('search.help.many')}
                  </Badge>
                )}
                {field.freeText && (
                  <Badge size="xs" variant="light">
                    {t('search.help.freeText')}
                  </Badge>
                )}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * The query language explained (docs/query-language.md) in the console's language, with examples
 * that go into the query box, and every kind's fields from the contract's catalogue.
 */
export function QueryHelp({
  opened,
  onClose,
  onPick,
  kinds,
}: {
  opened: boolean;
  onClose: () => void;
  onPick: (query: string) => void;
  /** The kinds chosen: their fields are shown first. */
  kinds: readonly SearchKind[];
}) {
  const { t } = useTranslation();
  return (
    <SideDrawer opened={opened} onClose={onClose} title={t('search.help.title')} size="xl" testId="search-help">
      <Stack gap="lg" className="vigil-search-help">
        <Text size="sm">{t('search.help.intro')}</Text>
        {helpSections.map((section) => (
          <HelpPart key={section.id} section={section} onPick={onPick} />
        ))}
        <Stack gap={6}>
          <Title order={4}>{t('search.help.fieldsTitle')}</Title>
          <Text size="sm">{t('search.help.fieldsIntro')}</Text>
          <Tabs defaultValue={kinds[0] ?? 'network'} keepMounted={false}>
            <Tabs.List>
              {searchKinds.map((kind) => (
                <Tabs.Tab key={kind} value={kind} data-testid={`search-help-kind-${kind}`}>
                  {t(`search.kinds.${kind}`)}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {searchKinds.map((kind) => (
              <Tabs.Panel key={kind} value={kind} pt="xs">
                <KindFields kind={kind} />
              </Tabs.Panel>
            ))}
          </Tabs>
        </Stack>
      </Stack>
    </SideDrawer>
  );
}
