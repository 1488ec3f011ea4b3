import { SegmentedControl } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';

/** Whether a Markdown text is being written or shown as it will read. */
export type MarkdownMode = 'write' | 'preview';

/** Switches a Markdown text between writing it and previewing it. */
export function MarkdownModeSwitch({
  value,
  onChange,
}: {
  value: MarkdownMode;
  onChange: (mode: MarkdownMode) => void;
}) {
  const { t } = useTranslation();
  return (
    <SegmentedControl
      size="xs"
      value={value}
      onChange={(next) => onChange(next === 'preview' ? 'preview' : 'write')}
      data={[
        { value: 'write', label: t('incidents.comments.write') },
        { value: 'preview', label: t('incidents.comments.preview') },
      ]}
    />
  );
}
