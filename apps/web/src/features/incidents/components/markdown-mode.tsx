import { SegmentedControl, Textarea, type TextareaProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { MarkdownView } from '../../../components/ui/markdown-view';

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

/** The longest Markdown text an incident keeps in one field (a description, a comment). */
const MARKDOWN_MAX = 20000;

/**
 * A Markdown text: written in a text area that grows with it from `rows[0]` to `rows[1]` lines, or, in
 * preview, shown as it will read (`emptyPreview` stands in for a text that is still blank).
 */
export function MarkdownField({
  mode = 'write',
  value,
  onChange,
  rows: [minRows, maxRows],
  maxLength = MARKDOWN_MAX,
  emptyPreview,
  previewTestId,
  ...textarea
}: Omit<TextareaProps, 'value' | 'onChange' | 'autosize' | 'minRows' | 'maxRows' | 'rows'> & {
  mode?: MarkdownMode;
  value: string;
  onChange: (value: string) => void;
  rows: readonly [number, number];
  emptyPreview?: ReactNode;
  previewTestId?: string;
}) {
  if (mode === 'preview') {
    return (
      <div className="vigil-comment-editor__preview" data-testid={previewTestId}>
        {emptyPreview !== undefined && !value.trim() ? emptyPreview : <MarkdownView source={value} />}
      </div>
    );
  }
  return (
    <Textarea
      autosize
      minRows={minRows}
      maxRows={maxRows}
      maxLength={maxLength}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      {...textarea}
    />
  );
}
