import { ActionIcon, CopyButton, TextInput, Tooltip, type ActionIconProps } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n';

/** A read-only value (a token, a link, a secret) with a button that copies it. */
export function CopyField({
  label,
  value,
  testId,
  description,
}: {
  label: string;
  value: string;
  testId?: string;
  description?: string;
}) {
  return (
    <TextInput
      label={label}
      description={description}
      value={value}
      readOnly
      onFocus={(event) => event.currentTarget.select()}
      classNames={{ input: 'vigil-mono-input' }}
      data-testid={testId}
      rightSectionWidth={42}
      rightSection={<CopyAction value={value} testId={testId ? `${testId}-copy` : undefined} />}
    />
  );
}

/** An icon button that copies `value`, then says so for two seconds; extra props place the button. */
export function CopyAction({
  value,
  testId,
  ...place
}: { value: string; testId?: string | undefined } & ActionIconProps) {
  const { t } = useTranslation();
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? t('common.copied') : t('common.copy')} withArrow position="left">
          <ActionIcon
            {...place}
            variant="subtle"
            color={copied ? 'teal' : 'gray'}
            onClick={copy}
            aria-label={t('common.copy')}
            data-testid={testId}
          >
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}
