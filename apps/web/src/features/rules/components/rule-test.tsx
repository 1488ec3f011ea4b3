import { Alert, Badge, Button, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { MAX_RULE_TEST_FILE_BYTES } from '@vigil/contract/client';
import { useState } from 'react';
import { DropZone } from '../../../components/form/drop-zone';
import { FormError, fieldError } from '../../../components/form/form-error';
import { formatBytes } from '../../../lib/bytes';
import { useTranslation, type TFunction } from '../../../lib/i18n';
import { Panel } from '../../../components/ui/panel';
import { testFields, testRule, type RuleKind, type RuleTestAnswer } from '../api/rules';

type RuleTestNote = RuleTestAnswer['notes'][number];

/** One fact of the test's answer, worded in the reader's language. */
export function noteText(note: RuleTestNote, t: TFunction, language: string): string {
  switch (note.kind) {
    case 'event_read': {
      const action = note.action ?? t('rules.test.noteKinds.noAction');
      return note.channel
        ? t('rules.test.noteKinds.eventReadFrom', {
            format: note.format,
            action,
            channel: note.channel,
            code: note.code ?? '—',
          })
        : t('rules.test.noteKinds.eventRead', { format: note.format, action });
    }
    case 'log_sources':
      return note.sources.length > 0
        ? t('rules.test.noteKinds.logSources', { sources: note.sources.join(', ') })
        : t('rules.test.noteKinds.notWindows');
    case 'log_source_excludes':
      return t('rules.test.noteKinds.logSourceExcludes', { title: note.title, source: note.source });
    case 'detection_no_match':
      return t('rules.test.noteKinds.detectionNoMatch', { title: note.title });
    case 'eve_alert':
      return t('rules.test.noteKinds.eveAlert', {
        gid: note.gid,
        sid: note.sid,
        rev: note.rev === null ? '' : t('rules.test.noteKinds.eveRev', { rev: note.rev }),
        signature: note.signature,
      });
    case 'no_rule_for_alert':
      return t('rules.test.noteKinds.noRuleForAlert');
    case 'parsed_only':
      return t('rules.test.noteKinds.parsedOnly');
    case 'other_revision':
      return t('rules.test.noteKinds.otherRevision', { rule: note.rule, sensor: note.sensor, text: note.text });
    case 'other_message':
      return t('rules.test.noteKinds.otherMessage', { rule: note.rule, sensor: note.sensor });
    case 'file_scanned':
      return t('rules.test.noteKinds.fileScanned', { name: note.name, size: formatBytes(note.bytes, language) });
  }
}

interface PickedSample {
  name: string;
  contentBase64: string;
}

/** A file's bytes in base64, read in the browser. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  const chunk = 0x8000;
  for (let at = 0; at < bytes.length; at += chunk) {
    binary += String.fromCharCode(...bytes.subarray(at, at + chunk));
  }
  return btoa(binary);
}

/** "Test this rule": the rule's text (editable) tried on an event (Sigma, Suricata) or a file (YARA). */
export function RuleTest({ kind, source }: { kind: RuleKind; source: string }) {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState(source);
  const [event, setEvent] = useState('');
  const [file, setFile] = useState<PickedSample | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: () =>
      testRule(kind, {
        source: text,
        ...(kind === 'yara' ? (file ? { file } : {}) : { event }),
      }),
  });
  const pick = async (files: File[]) => {
    const chosen = files[0];
    run.reset();
    if (!chosen) return;
    if (chosen.size > MAX_RULE_TEST_FILE_BYTES) {
      setFile(null);
      setFileProblem(
        t('rules.test.fileTooLarge', {
          name: chosen.name,
          size: formatBytes(chosen.size, i18n.language),
          limit: formatBytes(MAX_RULE_TEST_FILE_BYTES, i18n.language),
        }),
      );
      return;
    }
    setFileProblem(null);
    setFile({ name: chosen.name, contentBase64: await base64Of(chosen) });
  };
  const ready = text.trim() !== '' && (kind === 'yara' ? file !== null : event.trim() !== '');

  return (
    <Panel title={t('rules.test.title')} testId="rule-test">
      <form
        noValidate
        onSubmit={(submitted) => {
          submitted.preventDefault();
          if (ready) run.mutate();
        }}
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {kind === 'suricata' ? t('rules.test.introSuricata') : t('rules.test.intro')}
          </Text>
          <Textarea
            label={t('rules.test.source')}
            value={text}
            onChange={(changed) => setText(changed.currentTarget.value)}
            autosize
            minRows={4}
            maxRows={16}
            spellCheck={false}
            classNames={{ input: 'vigil-rule-test__code' }}
            error={fieldError(run.error, 'source')}
            data-testid="rule-test-source"
          />
          {kind === 'yara' ? (
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('rules.test.file')}
              </Text>
              <DropZone
                label={file ? file.name : t('rules.test.chooseFile')}
                accept="*/*"
                onFiles={(files) => void pick(files)}
                testId="rule-test-drop"
                inputTestId="rule-test-file"
              />
              <Text size="xs" c="dimmed">
                {t('rules.test.fileHint', { limit: formatBytes(MAX_RULE_TEST_FILE_BYTES, i18n.language) })}
              </Text>
              {(fileProblem ?? fieldError(run.error, 'file')) && (
                <Text size="sm" c="red" role="alert">
                  {fileProblem ?? fieldError(run.error, 'file')}
                </Text>
              )}
            </Stack>
          ) : (
            <Textarea
              label={t('rules.test.event')}
              description={
                kind === 'sigma'
                  ? t('rules.test.eventHintSigma')
                  : t('rules.test.eventHintSuricata', { example: 'event_type: alert' })
              }
              value={event}
              onChange={(changed) => setEvent(changed.currentTarget.value)}
              autosize
              minRows={3}
              maxRows={12}
              spellCheck={false}
              classNames={{ input: 'vigil-rule-test__code' }}
              error={fieldError(run.error, 'event')}
              data-testid="rule-test-event"
            />
          )}
          <FormError error={run.error} shownFields={testFields} />
          <Group gap="sm">
            <Button
              type="submit"
              leftSection={<IconFlask size={16} />}
              loading={run.isPending}
              disabled={!ready}
              data-testid="rule-test-run"
            >
              {t('rules.test.run')}
            </Button>
            {text !== source && (
              <Button variant="subtle" onClick={() => setText(source)} data-testid="rule-test-reset">
                {t('rules.test.reset')}
              </Button>
            )}
          </Group>
          {run.data && <TestAnswer answer={run.data} />}
        </Stack>
      </form>
    </Panel>
  );
}

function TestAnswer({ answer }: { answer: RuleTestAnswer }) {
  const { t, i18n } = useTranslation();
  const rules = answer.rules.map((rule) => rule.rule).join(', ');
  return (
    <Stack gap="xs" data-testid="rule-test-answer" data-matched={answer.matched}>
      <Group gap="sm">
        <Badge
          color={answer.matched ? 'red' : 'gray'}
          variant={answer.matched ? 'filled' : 'light'}
          size="lg"
          data-testid="rule-test-verdict"
        >
          {answer.matched ? t('rules.test.matched') : t('rules.test.notMatched')}
        </Badge>
        {rules && (
          <Text size="sm" c="dimmed" className="vigil-rule-break">
            {t('rules.test.rulesRead', { rules })}
          </Text>
        )}
      </Group>
      {answer.rules
        .filter((rule) => rule.unsupported !== null)
        .map((rule) => (
          <Text key={rule.rule} size="sm" c="orange">
            {t('rules.test.unsupported', { rule: rule.rule, reason: rule.unsupported ?? '' })}
          </Text>
        ))}
      {answer.problems.length > 0 && (
        <Alert color="red" variant="light" title={t('rules.test.problems')} data-testid="rule-test-problems">
          <List size="sm" spacing={2}>
            {answer.problems.map((problem, index) => (
              <List.Item key={index}>
                <span className="vigil-cell-mono">{t('rules.test.line', { line: problem.line })}</span>
                {problem.rule && <span className="vigil-cell-mono"> · {problem.rule}</span>}: {problem.reason}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      {answer.matches.map((match, index) => (
        <div key={`${match.rule}-${index}`} className="vigil-rule-test__match" data-testid="rule-test-match">
          <Text size="sm" fw={600}>
            {t('rules.test.match', { rule: match.rule })} · {match.title}
          </Text>
          <ul>
            {match.details.map((line, at) => (
              <li key={at} className="vigil-cell-mono">
                {line}
              </li>
            ))}
          </ul>
        </div>
      ))}
      {answer.notes.length > 0 && (
        <div data-testid="rule-test-notes">
          <Text size="sm" fw={600}>
            {t('rules.test.notes')}
          </Text>
          <List size="sm" spacing={2}>
            {answer.notes.map((note, index) => (
              <List.Item key={index}>{noteText(note, t, i18n.language)}</List.Item>
            ))}
          </List>
        </div>
      )}
    </Stack>
  );
}
