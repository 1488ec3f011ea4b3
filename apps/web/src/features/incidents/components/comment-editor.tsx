import { Button, Group, Stack, Text } from '@mantine/core';
import { IconMarkdown } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { FormError, fieldError } from '../../../components/form';
import { Note } from '../../../components/ui/note';
import { addComment } from '../api/incidents';
import { useIncidentRefresh } from '../api/hooks';
import { MarkdownField, MarkdownModeSwitch, type MarkdownMode } from './markdown-mode';

/** The field the editor shows the server's problems beside. */
const SHOWN_FIELDS = ['body'];

/** Writing a comment in Markdown, with a preview of how it will read; Ctrl/⌘+Enter posts it. */
export function CommentEditor({ incidentId }: { incidentId: number }) {
  const { t } = useTranslation();
  const refresh = useIncidentRefresh(incidentId);
  const [mode, setMode] = useState<MarkdownMode>('write');
  const [body, setBody] = useState('');
  const post = useMutation({
    mutationFn: (text: string) => addComment(incidentId, text, { shownFields: SHOWN_FIELDS }),
    onSuccess: async (detail) => {
      setBody('');
      setMode('write');
      await refresh(detail);
    },
  });
  const trimmed = body.trim();
  const submit = () => {
    if (trimmed && !post.isPending) post.mutate(trimmed);
  };

  return (
    <form
      className="vigil-comment-editor"
      data-testid="comment-editor"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <MarkdownModeSwitch value={mode} onChange={setMode} />
          <Group gap={4} c="dimmed">
            <IconMarkdown size={16} aria-hidden />
            <Text size="xs" c="dimmed">
              {t('incidents.comments.markdownHint')}
            </Text>
          </Group>
        </Group>
        <MarkdownField
          mode={mode}
          aria-label={t('incidents.comments.label')}
          placeholder={t('incidents.comments.placeholder')}
          rows={[3, 16]}
          value={body}
          onChange={setBody}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              submit();
            }
          }}
          error={fieldError(post.error, 'body')}
          data-testid="comment-input"
          emptyPreview={<Note>{t('incidents.comments.nothingToPreview')}</Note>}
          previewTestId="comment-preview"
        />
        <FormError error={post.error} shownFields={SHOWN_FIELDS} />
        <Group justify="flex-end">
          <Button type="submit" size="sm" loading={post.isPending} disabled={!trimmed} data-testid="comment-submit">
            {t('incidents.comments.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
